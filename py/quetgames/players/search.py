"""What every computer player shares: the light position a search plays on,
the generic player, the time budget, and the searches (UCT, flat Monte-Carlo,
alpha-beta), each written once.

A search never plays on `State`: `play()` copies a whole immutable state and
checks everything, which is right at the boundary and far too slow inside a
search. A game's adapter (players/<game>.py) instead gives a `Sim`: a mutable
copy of the position, built from the state's own typed fields, whose moves
are small values (a square, a mask, a number) applied with the game module's
own rule functions. The generic `StateSim` wraps a `State` for a game without
an adapter (any sequential game), so a new game is playable before it is fast.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from math import sqrt
from typing import Any, Generic, Self, TypeVar

from ..base import State
from ..data import JSONObject

__all__ = ["Budget", "Sim", "StateSim", "Player", "GenericPlayer", "AnyPlayer", "Proof", "Verdict", "open_joint", "uct",
           "affordable", "halving", "paired_means", "paired_difference", "alphabeta", "best_at_root", "solve_to_end", "plies_to_win",
           "best_by_plies", "OutOfTime"]

UCT_C = 0.9  # exploration constant of the tree search
FORCE_EVERY = 4  # the analysis sends every 4th iteration of a search through the move played

Rewards = tuple[float, ...]
M = TypeVar("M")  # a move of a search position: whatever small value the adapter chooses
S = TypeVar("S", bound="Sim[Any]")  # a game's search position
St = TypeVar("St", bound=State)  # a game's state


@dataclass(frozen=True)
class Budget:
    """How long a search may run: exactly `iterations` steps when given (the
    same moves on any machine), else until the `deadline` (time.perf_counter)."""

    deadline: float
    iterations: int | None = None

    def spent(self, done: int) -> bool:
        if self.iterations is not None:
            return done >= self.iterations
        return time.perf_counter() >= self.deadline


@dataclass(frozen=True)
class Proof:
    """A position's value proved by search: each seat's result (a win 1, a
    win shared by k seats 1/k) and the best move of the seat to move (None
    once the game is over).

    `plies`, when the adapter knows it, is the distance to the end under best
    play, as a tablebase's distance to mate: the seat that wins takes the
    shortest way to its win, a seat that loses holds out longest, and `best`
    is the move that does so (0 once the game is over; None when not known,
    and always None for a shared win). The analysis ranks the moves that keep
    the same proved result by it."""

    values: tuple[float, ...]
    best: str | None
    plies: int | None = None


@dataclass(frozen=True)
class Verdict:
    """A move judged by a game's own method (for moves the generic search
    cannot weigh, such as a joint secret move): the mover's expected result
    before it (the best move found) and after it, the best move found and
    the loss, and the loss's spread (its standard error) where known."""

    before: float
    after: float
    best: str
    loss: float
    spread: float | None = None  # the loss's standard error, when the method knows it


class OutOfTime(Exception):
    """Raised inside a depth-first search when its budget is spent."""


class Sim(Generic[M]):
    """A mutable position for searching. Subclasses keep their own fields;
    moves (M) are whatever small values the game's adapter chooses."""

    __slots__ = ()
    players: int

    def mover(self) -> int:
        """The seat to move, -1 once the game is over."""
        raise NotImplementedError  # pragma: no cover

    def legal(self) -> list[M]:
        """The mover's legal moves."""
        raise NotImplementedError  # pragma: no cover

    def play(self, move: M) -> None:
        """Play a legal move for the mover, in place."""
        raise NotImplementedError  # pragma: no cover

    def copy(self) -> Self:
        raise NotImplementedError  # pragma: no cover

    def scores(self) -> Sequence[int]:
        raise NotImplementedError  # pragma: no cover

    def score(self, seat: int) -> int:
        """One seat's score (`scores()[seat]`; an adapter may answer without building them all)."""
        return self.scores()[seat]

    def winners(self) -> tuple[int, ...]:
        """The seats that win a finished game: the best score, shared."""
        scores = self.scores()
        best = max(scores)
        return tuple(s for s, x in enumerate(scores) if x == best)


class StateSim(Sim[str]):
    """The generic position: a `State` played through the public API."""

    __slots__ = ("state", "players")

    def __init__(self, state: State) -> None:
        self.state = state
        self.players = state.players

    def mover(self) -> int:
        to_move = self.state.to_move
        return to_move[0] if to_move else -1

    def legal(self) -> list[str]:
        return self.state.legal_moves(self.mover())

    def play(self, move: str) -> None:
        self.state = self.state.play(move, self.mover())

    def copy(self) -> StateSim:
        return StateSim(self.state)

    def scores(self) -> Sequence[int]:
        return self.state.scores

    def winners(self) -> tuple[int, ...]:
        return self.state.winners


def open_joint(state: State) -> bool:
    """Whether `state` is an open joint move, the positions `Player.exact_joint`
    proves: two seats, both to choose now, at once and in secret, and neither
    has chosen yet."""
    return state.players == 2 and state.to_move == (0, 1)


def rewards(sim: Sim[Any]) -> Rewards:
    """The outcome of a finished game per seat: a win 1, a win shared by k seats 1/k."""
    winners = sim.winners()
    share = 1.0 / len(winners) if winners else 0.0
    return tuple(share if s in winners else 0.0 for s in range(sim.players))


def advantage(scores: Sequence[int], seat: int) -> float:
    """The seat's score minus the best score among the others."""
    others = [x for s, x in enumerate(scores) if s != seat]
    return scores[seat] - (max(others) if others else 0)


def leader_rewards(sim: Sim[Any]) -> Rewards:
    """A rough outcome of an unfinished game, for cut-off rollouts: the current
    leaders share the win, blended half and half with an even split."""
    scores = sim.scores()
    best = max(scores)
    leaders = [s for s, x in enumerate(scores) if x == best]
    even = 1.0 / len(scores)
    return tuple(0.5 * even + (0.5 / len(leaders) if s in leaders else 0.0) for s in range(len(scores)))


class Player(Generic[St, S, M]):
    """What the computer players know of one game: its state class St, its
    search position S and that position's moves M. The defaults play any
    sequential game once `sim` gives a position (`GenericPlayer` plays through
    `StateSim`); a game's adapter overrides `sim` and `notation` (and whatever
    knowledge pays) in players/<game>.py."""

    rollout_cap = 10_000  # moves before a rollout is cut off and scored by the leaders
    # The analysis a page asks for with no setting of its own (the bridge's
    # `analyse`): this many iterations a move, so a game's analysis is the same
    # on every device and as quick as its search allows; None: the time budget.
    # 300 is the setting docs/ANALYSIS.md's strong-against-random table is run at.
    analysis_iterations: int | None = 300
    # Why the analysis's marks and the game's result may disagree in this
    # game, in words the analysis states beside the accuracy when one seat
    # has ? or ?? marks and another none (None: they cannot, beyond what the
    # marks say: every fall of a seat's result is some seat's marked move).
    analysis_remark: str | None = None
    widen_base = 6  # progressive widening: children allowed = base + widen * sqrt(visits)
    widen = 2.0

    def sim(self, state: St) -> S:
        """The position as a mutable copy to search on."""
        raise NotImplementedError  # pragma: no cover

    def notation(self, sim: S, move: M) -> str:
        """A move of `sim` as the game writes it."""
        return str(move)

    # random ------------------------------------------------------------

    def random_move(self, state: St, seat: int, rng: random.Random) -> str:
        return rng.choice(state.legal_moves(seat))

    # greedy ------------------------------------------------------------

    def gain(self, before: S, after: S, seat: int) -> float:
        """The immediate gain of the move that led from `before` to `after`: the
        change of the seat's advantage, or far below zero for a move that loses."""
        if after.mover() < 0 and seat not in after.winners():
            return -1e9
        return advantage(after.scores(), seat) - advantage(before.scores(), seat)

    def ranked(self, sim: S, seat: int, rng: random.Random) -> list[tuple[float, M]]:
        """(gain, move) for every legal move, best first, ties in random order."""
        keyed = []
        for move in sim.legal():
            after = sim.copy()
            after.play(move)
            keyed.append((self.gain(sim, after, seat), rng.random(), move))
        keyed.sort(key=lambda k: (k[0], k[1]), reverse=True)
        return [(g, m) for g, _, m in keyed]

    def greedy_move(self, state: St, seat: int, rng: random.Random) -> str:
        sim = self.sim(state)
        return self.notation(sim, self.ranked(sim, seat, rng)[0][1])

    # strong ------------------------------------------------------------

    def candidates(self, sim: S, seat: int, rng: random.Random) -> list[M]:
        """The moves the search considers at a node, best first by a cheap prior."""
        return [m for _, m in self.ranked(sim, seat, rng)]

    def rollout_move(self, sim: S, seat: int, rng: random.Random) -> M:
        moves: list[M] = sim.legal()
        return moves[int(rng.random() * len(moves))]  # uniform, and quicker than rng.choice

    def cutoff(self, sim: S) -> Rewards:
        return leader_rewards(sim)

    def solved(self, sim: S) -> Rewards | None:
        """The exact outcome of `sim` if the adapter can tell it cheaply, else None."""
        return None

    def whole_rollout(self, sim: S, rng: random.Random) -> Rewards | None:
        """A whole rollout from `sim` at once, for an adapter that can play
        one faster than move by move: the same outcome, from the same draws
        of `rng`, as `simulate` stepping with `rollout_move`, `solved`,
        `rollout_cap` and `cutoff` would give (its tests check that). None:
        step through (the default). `sim` may be played on."""
        return None

    def strong_move(self, state: St, seat: int, rng: random.Random, budget: Budget) -> str:
        sim = self.sim(state)
        moves = sim.legal()
        if len(moves) == 1:
            return self.notation(sim, moves[0])
        return self.notation(sim, uct(self, sim, rng, budget))

    # what the generic layers (analysis, balance, bridge) may ask ----------
    # Each has a neutral default: "this adapter does not know", and the
    # generic layer then does without (estimates, plays games, refuses).

    def exact(self, state: St, seat: int, rng: random.Random, iterations: int | None,
              deadline: float) -> Proof | None:
        """The proved value of an unfinished position with `seat` to move,
        within the deadline (or a node cap drawn from `iterations`), or None."""
        return None

    def lead(self, state: St, iterations: int | None, deadline: float) -> tuple[tuple[int, ...], str] | None:
        """For a two-seat game scored in points, where `exact` proves the
        position: each seat's final lead in points over the other under best
        play (the mover's largest, the other's the opposite), and the move
        that forces it; None when not proved (past `deadline`, or with an
        iteration count where the work is not known to be small) or not
        known. The analysis ranks the moves that keep one proved win or loss
        by it (`analysis.within_lead_loss`), as a tablebase ranks them by
        the distance to mate."""
        return None

    def exact_joint(self, state: St, seat: int, deadline: float) -> dict[str, tuple[float, str]] | None:
        """For a two-seat position where both seats choose at once and in
        secret (a joint move): every legal move of `seat`, with the result
        it proves for `seat` whatever the other seat chooses, now and to the
        end of the game (the worst over every choice of the other seat, each
        seat then playing its best), and a choice of the other seat that
        holds `seat` to that result; None when not proved."""
        return None

    def judge(self, state: St, seat: int, move: str, rng: random.Random, budget: Budget) -> Verdict | None:
        """`move` by `seat` from `state` (already reduced to what the seat may
        know) judged by the game's own method, or None: the analysis then
        searches it with the strong player's UCT."""
        return None

    def same_chances(self, state: St, seat: int, a: str, b: str) -> bool:
        """True when moves `a` and `b` by `seat` from `state` are images of
        each other under a symmetry of the position (a mirror of the board),
        so they offer exactly the same chances; False when unknown."""
        return False

    def prove(self, state: St, seconds: float) -> float | None:
        """The first seat's proved result from `state` under best play (1 won,
        0 lost, 0.5 a shared win), or None when not proved within `seconds`."""
        return None

    def best_possible(self, state: St) -> JSONObject | None:
        """For a game played alone: the best final score that could be reached
        from the start, {score, exact, method}; None when the adapter has none."""
        return None


class GenericPlayer(Player[State, StateSim, str]):
    """The player of a game without an adapter: any sequential game, through
    the public API (`StateSim`)."""

    def sim(self, state: State) -> StateSim:
        return StateSim(state)


AnyPlayer = Player[Any, Any, Any]  # some game's adapter, whichever (the registry's view of them)


# -- UCT ---------------------------------------------------------------------------


class _Node(Generic[S, M]):
    __slots__ = ("move", "sim", "mover", "moves", "children", "visits", "total")

    def __init__(self, move: M | None, sim: S, moves: list[M] | None) -> None:
        self.move = move  # the move that led here
        self.sim = sim  # the position here (never played on: copied first)
        self.mover = sim.mover()  # -1: the game is over here
        self.moves = moves  # candidates not yet expanded, best last (popped first)
        self.children: list[_Node[S, M]] = []
        self.visits = 0
        self.total = 0.0  # rewards of the seat that moved into this node


def uct(player: Player[Any, S, M], root: S, rng: random.Random, budget: Budget) -> M:
    """UCT search with progressive widening from `root`; the most visited move.
    Each node keeps its position, so an iteration plays one move to expand
    the tree and then the rollout, on copies."""
    top: _Node[S, M] = _Node(None, root, list(reversed(player.candidates(root, root.mover(), rng))))
    # The loop runs thousands of times a second: what it calls is looked up once.
    candidates, base, widen, spent, log = player.candidates, player.widen_base, player.widen, budget.spent, math.log
    done = 0
    while not spent(done):
        done += 1
        node = top
        path = [top]
        # Selection and expansion.
        while node.mover >= 0:
            if node.moves is None:
                node.moves = list(reversed(candidates(node.sim, node.mover, rng)))
            if node.moves and len(node.children) < base + widen * sqrt(node.visits):
                move = node.moves.pop()
                sim = node.sim.copy()
                sim.play(move)
                child: _Node[S, M] = _Node(move, sim, None)
                node.children.append(child)
                path.append(child)
                node = child
                break
            log_n = log(node.visits + 1)
            best, best_value = node, -1.0
            for child in node.children:
                visits = child.visits
                value = child.total / visits + UCT_C * sqrt(log_n / visits) if visits else 1e9
                if value > best_value:
                    best, best_value = child, value
            node = best
            path.append(node)
        # Simulation.
        outcome = simulate(player, node.sim.copy(), rng)
        # Backpropagation: each node holds the rewards of the seat that moved into it.
        parent = top
        for child in path[1:]:
            child.visits += 1
            child.total += outcome[parent.mover]
            parent = child
        top.visits += 1
    if not top.children:  # no iteration ran: the prior's favourite
        return top.moves[-1] if top.moves else root.legal()[0]
    chosen = max(top.children, key=lambda c: (c.visits, c.total / max(c.visits, 1))).move
    assert chosen is not None  # (every child was reached by a move)
    return chosen


def simulate(player: Player[Any, S, Any], sim: S, rng: random.Random) -> Rewards:
    """Play `sim` out with the player's rollout policy (in place)."""
    if type(player).whole_rollout is not Player.whole_rollout:
        whole = player.whole_rollout(sim, rng)
        if whole is not None:
            return whole
    # The loop runs some 10^5 times a second: its calls are looked up once.
    solved = player.solved if type(player).solved is not Player.solved else None
    mover, play, choose, cap = sim.mover, sim.play, player.rollout_move, player.rollout_cap
    steps = 0
    while True:
        seat = mover()
        if seat < 0:
            return rewards(sim)
        if solved is not None:
            known = solved(sim)
            if known is not None:
                return known
        if steps >= cap:
            return player.cutoff(sim)
        play(choose(sim, seat, rng))
        steps += 1


# -- flat Monte-Carlo -------------------------------------------------------------


def affordable(budget: Budget, trial: Callable[[], object], tries: int = 4) -> int:
    """How many samples the budget holds: its iterations when given, else as
    many as fit before the deadline at the pace of `tries` runs of `trial`
    (timed now, and counted among them)."""
    if budget.iterations is not None:
        return budget.iterations
    began = time.perf_counter()
    for _ in range(tries):
        trial()
    pace = (time.perf_counter() - began) / tries
    return tries + max(0, int((budget.deadline - time.perf_counter()) / max(pace, 1e-6)))


def halving(arms: int, sample: Callable[[int, int], float], samples: int, rng: random.Random,
            deadline: float | None = None) -> tuple[int, int]:
    """The best of `arms` choices by successive halving on common random
    numbers, in about `samples` playouts; the best arm and the playouts used.

    `sample(arm, seed)` scores one playout of the arm, 0..1, all of whose
    chance comes from `seed`. Each stage samples every arm still in on the
    same seeds as the others, so two arms are always compared on the same
    luck (the draws that do not depend on the arm cancel out of their
    difference), and keeps the better half by the mean over all their
    samples; each stage gets an equal share of the playouts. Ties go to the
    lower arm; arm 0 when there is one arm. Past `deadline` (when given) it
    stops before the next arm and gives the best of the arms already
    sampled in the stage, which were the leaders of the stage before (arm 0
    if none)."""
    alive = list(range(arms))
    totals = [0.0] * arms
    count = 0  # samples of each arm still in, on seeds[:count]
    seeds: list[int] = []
    per_stage = samples // max(1, math.ceil(math.log2(max(arms, 1))))
    used = 0
    while len(alive) > 1:
        each = max(1, per_stage // len(alive))
        seeds.extend(rng.getrandbits(64) for _ in range(each))
        for i, arm in enumerate(alive):
            if deadline is not None and time.perf_counter() > deadline:
                # out of time within a stage: the arms not yet sampled in it
                # go by their last stage's means, as they stand
                done = alive[:i]
                if not done:
                    return alive[0], used
                best = max(done, key=lambda a: (totals[a] / len(seeds), -a))
                return best, used
            for seed in seeds[count:]:
                totals[arm] += sample(arm, seed)
        count += each
        used += each * len(alive)
        alive.sort(key=lambda a: (-totals[a], a))
        alive = alive[:(len(alive) + 1) // 2]
    return alive[0], used


def paired_means(arms: Sequence[int], sample: Callable[[int, int], float], pairs: int,
                 rng: random.Random) -> list[float]:
    """The mean score of each of `arms` over the same `pairs` seeds (at least one)."""
    seeds = [rng.getrandbits(64) for _ in range(max(1, pairs))]
    return [sum(sample(arm, seed) for seed in seeds) / len(seeds) for arm in arms]


def paired_difference(a: int, b: int, sample: Callable[[int, int], float], pairs: int,
                      rng: random.Random) -> tuple[float, float, float | None]:
    """The mean scores of arms `a` and `b` over the same `pairs` seeds (at
    least one), as `paired_means` draws them, and the standard error of the
    mean of their differences, seed by seed (None from a single seed)."""
    seeds = [rng.getrandbits(64) for _ in range(max(1, pairs))]
    first = [sample(a, seed) for seed in seeds]
    second = [sample(b, seed) for seed in seeds]
    n = len(seeds)
    differences = [x - y for x, y in zip(first, second)]
    mean = sum(differences) / n
    spread = sqrt(sum((d - mean) ** 2 for d in differences) / (n - 1) / n) if n > 1 else None
    return sum(first) / n, sum(second) / n, spread


# -- alpha-beta -------------------------------------------------------------------


def plies_to_win(player: Player[Any, S, Any], sim: S, winner: int, longest: int, nodes: list[int],
                 cap: int | None, deadline: float) -> int:
    """The fewest plies in which `winner` forces its win from `sim`, a
    two-seat position it is known to win within `longest` plies: a win within
    d plies implies one within d + 1, so the depth is found by doubling and
    then halving, each step one alpha-beta with the window (0.5, 1) that asks
    only "a win within d?". Raises OutOfTime as `alphabeta` does."""
    def wins_within(depth: int) -> bool:
        return alphabeta(player, sim, winner, depth, 0.5, 1.0, nodes, cap, deadline) >= 1.0

    if sim.mover() < 0:
        return 0
    low, high = 0, 1  # no win within low plies; is there one within high?
    while not wins_within(high):
        if high >= longest:
            raise OutOfTime  # (not won within the longest game: the caller's proof was cut short)
        low, high = high, min(2 * high, longest)
    while high - low > 1:
        middle = (low + high) // 2
        if wins_within(middle):
            high = middle
        else:
            low = middle
    return high


def best_by_plies(player: Player[Any, S, M], sim: S, order: Sequence[M], winner: int, plies: int,
                  nodes: list[int], cap: int | None, deadline: float) -> M:
    """Of a two-seat position that `winner` wins in exactly `plies` plies
    under best play, the mover's move that keeps to it: the first in `order`
    that wins within plies - 1 when the mover is the winner, else the first
    that holds out for plies - 1 (the winner cannot win within plies - 2 after
    it). Raises OutOfTime as `alphabeta` does."""
    mover = sim.mover()
    for move in order:
        child = sim.copy()
        child.play(move)
        if mover == winner:
            if alphabeta(player, child, winner, plies - 1, 0.5, 1.0, nodes, cap, deadline) >= 1.0:
                return move
        elif plies <= 1 or alphabeta(player, child, winner, plies - 2, 0.5, 1.0, nodes, cap, deadline) < 1.0:
            return move
    raise OutOfTime  # (no move keeps to it: the distance was cut short)


def alphabeta(player: Player[Any, S, Any], sim: S, me: int, depth: int, alpha: float, beta: float,
              nodes: list[int], cap: int | None, deadline: float) -> float:
    """Alpha-beta value of a two-seat position for `me`: 1 won, 0 lost, 0.5
    unresolved within `depth` moves (or a shared win). Children that keep the
    mover's score are searched first. Raises OutOfTime past `cap` nodes
    (when given) or the deadline."""
    seat = sim.mover()
    if seat < 0:
        winners = sim.winners()
        return 1.0 if winners == (me,) else 0.5 if me in winners else 0.0
    if depth <= 0:
        return 0.5
    nodes[0] += 1
    if cap is not None:
        if nodes[0] > cap:
            raise OutOfTime
    elif nodes[0] & 63 == 0 and time.perf_counter() >= deadline:
        raise OutOfTime
    children = []
    for move in sim.legal():
        child = sim.copy()
        child.play(move)
        children.append(child)
    children.sort(key=lambda c: -c.score(seat))
    if seat == me:
        value = -1.0
        for child in children:
            value = max(value, alphabeta(player, child, me, depth - 1, alpha, beta, nodes, cap, deadline))
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        return value
    value = 2.0
    for child in children:
        value = min(value, alphabeta(player, child, me, depth - 1, alpha, beta, nodes, cap, deadline))
        beta = min(beta, value)
        if alpha >= beta:
            break
    return value


def best_at_root(player: Player[Any, S, Any], sim: S, seat: int, moves: Iterable[M], depth: int, nodes: list[int],
                 cap: int | None, deadline: float) -> tuple[float, M | None]:
    """Alpha-beta over `moves` of a two-seat position with `seat` to move:
    the best value for `seat` and its move (None when there are none),
    stopping at a sure win. Raises OutOfTime (or RecursionError) as
    `alphabeta` does."""
    best_value, best_move = -1.0, None
    for move in moves:
        child = sim.copy()
        child.play(move)
        value = alphabeta(player, child, seat, depth, best_value, 2.0, nodes, cap, deadline)
        if best_move is None or value > best_value:
            best_value, best_move = value, move
        if best_value >= 1.0:
            break
    return best_value, best_move


def solve_to_end(player: Player[Any, S, Any], sim: S, seat: int, longest: int, cap: int | None,
                 deadline: float) -> Proof | None:
    """The proved value of a two-seat position with `seat` to move, by
    alpha-beta over every line to the end, for an adapter that knows no line
    lasts more than `longest` moves (so no line is cut and a shared win is
    proved as surely as a win); None past `cap` nodes or the deadline."""
    nodes = [0]
    try:
        best_value, best_move = best_at_root(player, sim, seat, player.candidates(sim, seat, random.Random(0)),
                                             longest, nodes, cap, deadline)
    except (OutOfTime, RecursionError):
        return None
    if best_move is None:
        return None
    values = tuple(best_value if s == seat else 1 - best_value for s in range(2))
    return Proof(values, player.notation(sim, best_move))
