"""Analysis of a played game: how each move changed its mover's expected result.

    >>> import quetgames
    >>> for game_id in quetgames.GAMES:   # any game: two moves of it
    ...     s = quetgames.new_game(game_id)
    ...     for _ in range(2):
    ...         seat = s.to_move[0]
    ...         s = s.play(s.legal_moves(seat)[0], seat)
    ...     report = quetgames.analyse(s, iterations=20)
    ...     assert len(report.moves) == 2 and all(0.0 <= m.before <= 1.0 for m in report.moves)
    >>> report.moves[0].grade in CLASSES
    True

Values. A position's value for a seat is that seat's expected result from it:
a win counts 1, a win shared by k seats 1/k, so with three or more seats it is
the seat's expected share of the win (an even game is worth 1/players). For
each move the report gives the mover's value before it (the value of the
position, that is of the best move found) and after it (the value of the
position the move left), the best move found, and the loss, before − after
(never below 0; a move that is the best move found loses 0).

Exact or estimated. A value is *exact* when search proves it: a finished
game, or a position the game's adapter proves (its `exact` hook: an
alpha-beta that resolves every line within the budget, or an exact solver
for the end of a game). A move is marked exact when both its values are.

Inside one proved result. Where every move keeps the same proved value (a
lost position, or a won one where the move keeps the win), the values alone
would call every move best. The adapter's proof may then carry the distance
to the end under best play (`Proof.plies`: the winner hurries, the loser
holds out, as a tablebase's distance to mate), and the moves are ranked by
it: a lost side that gives up plies of resistance, or a winning side that
takes a detour, loses a share of LOST_SPREAD or WON_SPREAD
(`within_result_loss`), so giving up a lost game's whole resistance and a
slow win are each at worst an inaccuracy (?!), never a ? or ??, and stay far below
the 0.5 or 1 that changing the proved result costs. A shared win has no
such key.

Everything else is estimated by one UCT search of the position before the
move (the strong player's candidates, progressive widening and rollouts),
which backs up every seat's result (each node chooses for its own mover, as
in max^n) and sends every 4th iteration through the move played, whatever
its value: before is the mean result of the most visited move (not counting
those forced iterations), after that of the move played (or the proved value
of the position it leads to). Taking both from one tree makes a search's
optimism for its own mover cancel out, which two separate searches of the
positions before and after would not. A move that is the best move's image
under a symmetry of the position (a mirror of the board, as the adapter's
`same_chances` hook says) is best: the two have one value, and the search
only estimated it twice.

Secret moves are judged on what the mover could know when choosing: the
position is first reduced to the mover's secret-free view
(`State.secret_free`, the reduction `view(seat)` uses), so another seat's
secret move of the same round, chosen before or after, never enters the
analysis of the move. A game whose moves the tree search cannot weigh (a
joint secret move) judges them itself through its adapter's `judge` hook,
except where its `exact_joint` hook proves that some pick secures a result
whatever the other seat picks (near a game's end, where the hook reaches): a
pick is then judged by the result it secures, exactly.

Classes, from the loss in expected result (the model chess.com and lichess use
for "expected points", on a 0..1 scale): below 0.02 *best* (within the noise
of a search, or the move found best), below 0.05 *good*, below 0.10
*inaccuracy*, below 0.20 *mistake*, else *blunder*. Lichess's win-chance
thresholds (0.1, 0.2, 0.3 on its −1..1 scale) are 0.05, 0.10, 0.15 on this
one; the blunder line sits higher here, at 0.20, because these values come
from searches of a fraction of a second that are noisier than a chess engine:
a blunder should be a move that clearly throws away a fifth of a win. With
exact values a move that turns a proved win into a proved loss loses 1 (a
blunder), into a shared win 0.5 (a blunder), and a move that keeps a proved
win loses 0 (best).

A mark is a fact, or the move gets none (issue 55). A proved loss is
exact. An estimated loss comes with its spread, the standard error of the
difference of the two means it is made of (`MoveAnalysis.spread`), and a
loss that would be an inaccuracy or worse is graded so only when it is at
least SURE_SPREADS times its spread; otherwise the move is *uncertain*
(`sure_grade`): no mark, and an accuracy of 100, since the noise of a
search is no mistake of the player's.

Accuracy. Each move's accuracy is lichess's curve on the loss,
``103.1668 · exp(−4.354 · loss) − 3.1668`` clamped to 0..100 (lichess writes
it on win percentages, exp(−0.04354 · Δ%), and subtracts 3.1669, which leaves
a perfect move at 99.9999); a seat's accuracy for the game is
the mean over its moves that had a choice (a forced move, the only legal one,
says nothing about the player, and some games have many). None for a
seat that never had a choice.

Deterministic: the searches' randomness is seeded with the seed, the seat and
the record of the (secret-free) position; with ``iterations=N`` every position
is searched for exactly N iterations (the budget is then not consulted), so
the same game gives the same report on any machine, and in any number of
processes (``workers``): each move's analysis depends on nothing but its
position.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from math import sqrt
from typing import Any, Generic, TypeVar

from .base import State
from .errors import InvalidOptions
from .players import check_search_arguments, player_for
from .players.search import FORCE_EVERY, UCT_C, AnyPlayer, Budget, Proof, Sim, Verdict, open_joint, simulate
from .registry import load, replay_record
from .data import JSONObject

M = TypeVar("M")  # a move of a search position
S = TypeVar("S", bound="Sim[Any]")  # a game's search position

__all__ = ["analyse", "judge_each", "Analysis", "MoveAnalysis", "CLASSES", "THRESHOLDS", "classify", "move_accuracy",
           "within_result_loss", "within_lead_loss", "LOST_SPREAD", "WON_SPREAD", "SURE_SPREADS", "sure_grade"]

MAX_WORKERS = 64  # processes an analysis may spread over
DEFAULT_BUDGET = 0.45  # seconds a move: a 60-move game in under 30 s (measured: docs/ANALYSIS.md)
CLASSES = ("best", "good", "inaccuracy", "mistake", "blunder", "uncertain")
THRESHOLDS = (0.02, 0.05, 0.10, 0.20)  # the loss below which a move is best, good, inaccuracy, mistake
# An estimated loss is sure when it is at least this many times its spread
# (the standard error of the difference of the two means it comes from);
# a marked loss that is not is graded "uncertain", and counts for no accuracy.
SURE_SPREADS = 3.0
# The largest loss of a move that keeps its proved result (within_result_loss):
# giving up a lost game's resistance, or a detour on the way to a proved win,
# is at worst an inaccuracy (?!): a ? or ?? says a result was given away
# (issue 55; until then the whole resistance given up was a mistake, 0.15).
LOST_SPREAD = 0.095
WON_SPREAD = 0.08


@dataclass(frozen=True)
class MoveAnalysis:
    """One move of the game, judged from its mover's side."""

    ply: int  # 1 for the first move of the record
    seat: int
    move: str
    before: float  # the mover's expected result before the move (the best move's value)
    after: float  # ... and after it
    exact: bool  # both values proved by search
    best_move: str
    best_value: float
    loss: float
    grade: str  # one of CLASSES
    accuracy: float  # 0..100
    forced: bool  # the only legal move
    ends_in: int | None = None  # proved: plies to the end after this move under best play, the move counted
    best_ends_in: int | None = None  # ... and after the best move (the proof's distance to the end)
    spread: float | None = None  # estimated: the loss's standard error (None when proved or not known)
    lead: int | None = None  # proved: the mover's final lead in points after this move under best play
    best_lead: int | None = None  # ... and after the best move (the largest it could force), where the adapter knows it

    def to_json(self) -> JSONObject:
        return asdict(self)


@dataclass(frozen=True)
class Analysis:
    """The analysis of a whole game: every move, and each seat's accuracy."""

    game: str
    record: str
    players: int
    moves: tuple[MoveAnalysis, ...]
    accuracy: tuple[float | None, ...]  # per seat, None when it never had a choice
    seed: int
    budget: float
    iterations: int | None
    span: tuple[int, int]  # the moves judged: start, stop (0-based, stop excluded)
    total: int  # the moves of the whole record
    remark: str | None = None  # the adapter's words on why marks and result may disagree (`one_sided`)

    def to_json(self) -> JSONObject:
        return {
            "game": self.game, "record": self.record, "players": self.players,
            "moves": [m.to_json() for m in self.moves], "accuracy": list(self.accuracy),
            "classes": list(CLASSES), "thresholds": list(THRESHOLDS),
            "seed": self.seed, "budget": self.budget, "iterations": self.iterations,
            "span": list(self.span), "total": self.total, "remark": self.remark,
        }

    def one_sided(self) -> bool:
        """Whether some seat has a move marked ? or ?? and another seat, that
        had a choice, none: then the analysis states its `remark`, where the
        game has one, beside the accuracy (as the page does)."""
        marked = [any(m.grade in ("mistake", "blunder") for m in self.moves if m.seat == seat)
                  for seat in range(self.players)]
        chose = [any(not m.forced for m in self.moves if m.seat == seat) for seat in range(self.players)]
        return any(marked) and any(c and not k for c, k in zip(chose, marked))

    def counts(self, seat: int) -> dict[str, int]:
        """How many of the seat's moves fell in each class."""
        found = dict.fromkeys(CLASSES, 0)
        for m in self.moves:
            if m.seat == seat:
                found[m.grade] += 1
        return found


def classify(loss: float) -> str:
    """The class of a move that lost `loss` of its mover's expected result.

    >>> [classify(x) for x in (0.0, 0.03, 0.07, 0.15, 0.5, 1.0)]
    ['best', 'good', 'inaccuracy', 'mistake', 'blunder', 'blunder']
    """
    for name, limit in zip(CLASSES, THRESHOLDS):
        if loss < limit:
            return name
    return "blunder"


def sure_grade(loss: float, exact: bool, spread: float | None) -> tuple[str, float]:
    """The class and accuracy of a move with `loss`: a loss that would be
    marked (an inaccuracy or worse) is graded so only when it is proved
    (`exact`) or at least SURE_SPREADS times its spread; otherwise the move
    is "uncertain" and its accuracy is 100 (an estimate's noise is no
    mistake of the player's).

    >>> [sure_grade(0.3, True, None)[0], sure_grade(0.3, False, 0.05)[0], sure_grade(0.3, False, 0.2)[0]]
    ['blunder', 'blunder', 'uncertain']
    >>> sure_grade(0.3, False, None), sure_grade(0.0, False, None)
    (('uncertain', 100.0), ('best', 100.0))
    """
    grade = classify(loss)
    if grade in CLASSES[2:5] and not exact and (spread is None or loss < SURE_SPREADS * spread):
        return "uncertain", 100.0
    return grade, move_accuracy(loss)


def move_accuracy(loss: float) -> float:
    """Lichess's accuracy curve on a loss of expected result (0..1): 100 for no loss.

    >>> round(move_accuracy(0.0), 1), round(move_accuracy(0.1), 1), round(move_accuracy(1.0), 1)
    (100.0, 63.6, 0.0)
    """
    return min(100.0, max(0.0, 103.1668 * math.exp(-4.354 * loss) - 3.1668))


def within_result_loss(value: float, best: int, played: int) -> float:
    """The loss of a move that keeps its mover's proved result `value`, from
    the plies to the end under best play after the best move (`best`) and
    after the move played (`played`, the move counted), as tablebases rank
    moves by distance to mate: a won side should win soonest, a lost side
    hold out longest, giving the opponent every ply to go wrong. The loss is
    the share of the resistance given up, times LOST_SPREAD, or the share of
    the win's length that is detour, times WON_SPREAD; both stay far below
    the 0.5 between two proved results, and a shared win has none.

    >>> within_result_loss(0.0, 10, 10), within_result_loss(0.0, 10, 1), within_result_loss(0.0, 10, 5)
    (0.0, 0.0855, 0.0475)
    >>> within_result_loss(1.0, 5, 5), within_result_loss(1.0, 5, 10), within_result_loss(0.5, 5, 9)
    (0.0, 0.04, 0.0)
    """
    if value >= 1.0 and played > best:
        return round(WON_SPREAD * (played - best) / played, 6)
    if value <= 0.0 and played < best:
        return round(LOST_SPREAD * (best - played) / best, 6)
    return 0.0


def within_lead_loss(value: float, best: int, played: int) -> float:
    """The loss of a move that keeps its mover's proved win or loss `value`
    in a game scored in points, from the mover's final lead under best play
    after the best move (`best`, the largest it could force) and after the
    move played (`played`): a won side that wins by less gives up
    (best − played) / best of its winning lead, times WON_SPREAD; a lost
    side that loses by more, (best − played) / −played of its final deficit
    (the part of it that was not forced), times LOST_SPREAD. So, as with the
    distance to the end, at worst an inaccuracy (?!), never a ? or ??; a
    shared win has none (every line ends level).

    >>> within_lead_loss(1.0, 10, 10), within_lead_loss(1.0, 10, 5), within_lead_loss(1.0, 10, 1)
    (0.0, 0.04, 0.072)
    >>> within_lead_loss(0.0, -2, -2), within_lead_loss(0.0, -2, -10), within_lead_loss(0.5, 0, 0)
    (0.0, 0.076, 0.0)
    """
    if played >= best:
        return 0.0
    if value >= 1.0 and best > 0:
        return round(WON_SPREAD * (best - played) / best, 6)
    if value <= 0.0 and played < 0:
        return round(LOST_SPREAD * (best - played) / -played, 6)
    return 0.0


def analyse(
    state: State,
    budget: float | None = None,
    seed: int = 0,
    *,
    iterations: int | None = None,
    span: Sequence[int] | None = None,
    progress: Callable[[int, int], None] | None = None,
    workers: int = 1,
) -> Analysis:
    """The analysis of every move of `state`'s game (its whole record), each
    move's search taking about `budget` seconds, or exactly `iterations`
    iterations when given. With neither, the game's own setting: its
    adapter's `analysis_iterations` (the page's setting too, so the report is
    the page's, the same on every machine), else DEFAULT_BUDGET seconds. `span` = (start, stop) judges only the moves
    start..stop - 1 (0-based; the accuracy then covers those moves): a move's
    analysis does not depend on the others, so a page can analyse a game a
    few moves a call, showing progress and stopping when asked, and join the
    moves. `progress(done, total)` is called as moves are done.

    `workers` = N > 1 spreads the moves over N processes (a few moves a
    task, as a page's calls would be); the moves are the same as in one
    process for the same seed and iterations. Where there are no processes
    (Pyodide in the browser) only 1 works, the default.

    Raises InvalidOptions for a bad budget, seed, iteration count, span or
    worker count."""
    budget, iterations = _setting("analyse", state, seed, budget, iterations)
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= MAX_WORKERS:
        raise InvalidOptions(f"workers is a whole number from 1 to {MAX_WORKERS}, not {workers!r:.40}")
    record = state.record
    start, moves, _ = replay_record(record)
    if span is None:
        first, stop = 0, len(moves)
    elif (not isinstance(span, (list, tuple)) or len(span) != 2
          or not all(isinstance(x, int) and not isinstance(x, bool) for x in span)
          or not 0 <= span[0] <= span[1] <= len(moves)):
        raise InvalidOptions(f"the span is two move indices, start and stop, from 0 to {len(moves)}, not {span!r:.40}")
    else:
        first, stop = span[0], span[1]
    if workers > 1 and stop - first > 1:
        spread = _in_processes(record, budget, seed, iterations, first, stop, workers, progress)
        return _report(state, record, spread, seed, budget, iterations, first, stop, len(moves))
    positions = [start]
    seats = []
    for move, seat in moves[:stop]:
        here = positions[-1]
        seat = here.to_move[0] if seat is None else seat
        seats.append(seat)
        positions.append(here.play(move, seat))
    context = _Context(seed, budget, iterations)
    proof = _Proofs(player_for(state.game), context)
    judged: list[MoveAnalysis] = []
    for ply in range(first, stop):
        judged.append(_judge_at(proof, positions[ply], seats[ply], moves[ply][0], positions[ply + 1], ply + 1))
        if progress is not None:
            progress(ply + 1 - first, stop - first)
    return _report(state, record, judged, seed, budget, iterations, first, stop, len(moves))


def judge_each(state: State, seed: int = 0, *, iterations: int | None = None,
               budget: float | None = None) -> dict[str, MoveAnalysis]:
    """How the analysis would judge each legal move of the first seat to move
    at `state` if it were the game's next move: for the move the game goes on
    with, the same verdict `analyse` gives it with the same seed and setting.
    Raises InvalidOptions as `analyse` does, and for a finished game."""
    budget, iterations = _setting("judge_each", state, seed, budget, iterations)
    if state.is_over:
        raise InvalidOptions("the game is over: there is no move to judge")
    proof = _Proofs(player_for(state.game), _Context(seed, budget, iterations))
    seat = state.to_move[0]
    return {move: _judge_at(proof, state, seat, move, state.play(move, seat), state.plies + 1)
            for move in state.legal_moves(seat)}


def _setting(caller: str, state: State, seed: int, budget: float | None,
             iterations: int | None) -> tuple[float, int | None]:
    """The budget and iterations a call asked for, checked: with neither, the
    game's own setting (its adapter's `analysis_iterations`), else
    DEFAULT_BUDGET seconds. Raises InvalidOptions for a state that is not one,
    or a bad seed, budget or iteration count."""
    if not isinstance(state, State):
        raise InvalidOptions(f"{caller} needs a game state, not {type(state).__name__}")
    if budget is None:
        budget = DEFAULT_BUDGET
        if iterations is None:
            iterations = player_for(state.game).analysis_iterations
    check_search_arguments(seed, budget, iterations)
    return float(budget), iterations


def _report(state: State, record: str, judged: Sequence[MoveAnalysis], seed: int, budget: float,
            iterations: int | None, first: int, stop: int, total: int) -> Analysis:
    """The moves judged, with each seat's accuracy over those it had a choice in."""
    accuracy: list[float | None] = []
    for seat in range(state.players):
        mine = [m.accuracy for m in judged if m.seat == seat and not m.forced]
        accuracy.append(sum(mine) / len(mine) if mine else None)
    return Analysis(state.game.id, record, state.players, tuple(judged), tuple(accuracy), seed, budget, iterations,
                    (first, stop), total, player_for(state.game).analysis_remark)


# -- processes ----------------------------------------------------------------------


def _in_processes(record: str, budget: float, seed: int, iterations: int | None, first: int, stop: int,
                  workers: int, progress: Callable[[int, int], None] | None) -> list[MoveAnalysis]:
    """The moves first..stop - 1 judged in `workers` processes, a few moves a
    task (about four tasks a process, so a slow stretch of the game does not
    keep one process busy while the others wait), joined in order. The
    processes are started with 'spawn', which every platform has and which
    copies nothing of this process: each loads the record itself."""
    # Imported here: Pyodide has no processes, and the browser never gets here.
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from multiprocessing import get_context

    size = max(1, -(-(stop - first) // (workers * 4)))
    spans = [(a, min(a + size, stop)) for a in range(first, stop, size)]
    parts: dict[int, tuple[MoveAnalysis, ...]] = {}
    done = 0
    with ProcessPoolExecutor(max_workers=min(workers, len(spans)), mp_context=get_context("spawn")) as pool:
        futures = {pool.submit(_judge_span, (record, budget, seed, iterations, a, b)): a for a, b in spans}
        for future in as_completed(futures):
            parts[futures[future]] = future.result()
            done += len(parts[futures[future]])
            if progress is not None:
                progress(done, stop - first)
    return [m for a, _ in spans for m in parts[a]]


def _judge_span(task: tuple[str, float, int, int | None, int, int]) -> tuple[MoveAnalysis, ...]:
    """One process's task: the moves start..stop - 1 of a record, judged in one process."""
    record, budget, seed, iterations, start, stop = task
    return analyse(load(record), budget, seed, iterations=iterations, span=(start, stop)).moves


# -- the value of a position ------------------------------------------------------


@dataclass(frozen=True)
class _Context:
    seed: int
    budget: float
    iterations: int | None

    def rng(self, seat: int, position: State) -> random.Random:
        return random.Random(f"{self.seed}|analyse|{seat}|{position.moves_record}")

    def deadline(self, since: float, share: float = 1.0) -> float:
        return since + self.budget * share


class _Proofs:
    """A position's proof (the adapter's `exact` hook, or a finished game's
    result), found once: two moves in a row share the position between them."""

    def __init__(self, player: AnyPlayer, context: _Context) -> None:
        self.player, self.context = player, context
        self.known: dict[str, Proof | None] = {}
        self.leads: dict[str, tuple[tuple[int, ...], str | None] | None] = {}
        self.joints: dict[tuple[str, int], dict[str, tuple[float, str]] | None] = {}

    def __call__(self, state: State, began: float) -> Proof | None:
        key = state.moves_record
        if key not in self.known:
            self.known[key] = _exact(self.player, state, self.context, began)
        return self.known[key]

    def joint(self, state: State, seat: int, deadline: float) -> dict[str, tuple[float, str]] | None:
        """The adapter's `exact_joint` for `seat` at an open joint move, found
        once (`judge_each` asks it for every pick of the position)."""
        key = (state.moves_record, seat)
        if key not in self.joints:
            self.joints[key] = self.player.exact_joint(state, seat, deadline)
        return self.joints[key]

    def lead(self, state: State, began: float) -> tuple[tuple[int, ...], str | None] | None:
        """Each seat's final lead under best play and the move that forces the
        mover's (the adapter's `lead` hook; a finished game's own points)."""
        key = state.moves_record
        if key not in self.leads:
            if state.is_over:
                points = state.scores
                found: tuple[tuple[int, ...], str | None] | None = (
                    (points[0] - points[1], points[1] - points[0]), None) if len(points) == 2 else None
            else:
                found = self.player.lead(state, self.context.iterations, self.context.deadline(began, 0.5))
            self.leads[key] = found
        return self.leads[key]


def _judge_at(proof: _Proofs, position: State, seat: int, move: str, after: State, ply: int) -> MoveAnalysis:
    """`move`, played by `seat` at `position` and leaving `after`, judged:
    by the adapter's `judge` hook on the mover's secret-free view where it
    has one, else from the two positions' proofs and one search."""
    player, context = proof.player, proof.context
    began = time.perf_counter()
    public = position.secret_free(seat)  # another seat's pending secret, if any, is gone
    proved = _joint_judged(proof, public, seat, move, ply, context.deadline(began, 0.5))
    if proved is not None:
        return proved
    verdict = player.judge(public, seat, move, context.rng(seat, public), Budget(context.deadline(began), context.iterations))
    if verdict is not None:
        return _judged(public, seat, move, ply, verdict)
    # Proofs get half the move's budget between them, the estimate the rest.
    here, there = proof(position, began), proof(after, began)
    leads = None
    if here is not None and there is not None and here.values[seat] == there.values[seat] in (0.0, 1.0):
        # one proved win or loss kept: the lead in points ranks the moves, where the adapter proves it
        before_lead, after_lead = proof.lead(position, began), proof.lead(after, began)
        if before_lead is not None and after_lead is not None and before_lead[1] is not None:
            leads = before_lead[0][seat], before_lead[1], after_lead[0][seat]
    return _judge_move(player, position, seat, move, ply, here, there, context, began, leads)


def _joint_judged(proof: _Proofs, state: State, seat: int, move: str, ply: int,
                  deadline: float) -> MoveAnalysis | None:
    """A pick of an open joint move (two seats choosing at once, in secret),
    judged from the adapter's proof (`exact_joint`) when that proof finds a
    pick that secures a result whatever the other seat picks: `before` is the
    best result a pick secures, `after` the result the pick played secures.
    None when there is no such proof, or when no pick secures anything (then
    every pick can be beaten, and which is best is a guess at the other
    seat's pick: the adapter's `judge` weighs that)."""
    if not open_joint(state):
        return None
    proved = proof.joint(state, seat, deadline)
    if proved is None or move not in proved:
        return None
    secured = {m: value for m, (value, _) in proved.items()}
    before, after = max(secured.values()), secured[move]
    if before <= 0.0:
        return None
    best = move if after >= before else next(m for m in state.legal_moves(seat) if secured.get(m) == before)
    forced = len(state.legal_moves(seat)) == 1
    loss = 0.0 if forced else before - after
    return MoveAnalysis(ply, seat, move, before, after, True, best, before, loss, classify(loss),
                        move_accuracy(loss), forced)


def _exact(player: AnyPlayer, state: State, context: _Context, began: float) -> Proof | None:
    """The proved value of a position for every seat, and the mover's best
    move; None when no search here proves it (the adapter's `exact` hook)."""
    if state.is_over:
        winners = state.winners
        share = 1.0 / len(winners) if winners else 0.0
        return Proof(tuple(share if s in winners else 0.0 for s in range(state.players)), None, 0)
    seat = state.to_move[0]
    return player.exact(state, seat, context.rng(seat, state), context.iterations, context.deadline(began, 0.5))


def _judged(state: State, seat: int, move: str, ply: int, verdict: Verdict) -> MoveAnalysis:
    """A move the game's adapter judged itself."""
    forced = len(state.legal_moves(seat)) == 1
    grade, accuracy = sure_grade(0.0 if forced else verdict.loss, False, verdict.spread)
    return MoveAnalysis(ply, seat, move, verdict.before, verdict.after, False, verdict.best, verdict.before,
                        verdict.loss, grade, accuracy, forced, spread=verdict.spread)


def _judge_move(player: AnyPlayer, state: State, seat: int, move: str, ply: int, here: Proof | None,
                there: Proof | None, context: _Context, began: float,
                leads: tuple[int, str, int] | None = None) -> MoveAnalysis:
    """A move of a sequential game: from the proved values when both positions
    have one, else from one search of the position before the move in which
    the move played gets a share of the iterations (so before and after come
    from the same tree and a search's optimism for its mover cancels out)."""
    forced = len(state.legal_moves(seat)) == 1
    ends_in = best_ends_in = None
    within = 0.0  # the loss inside one proved result
    spread: tuple[float, float] | None = None  # the estimate's standard errors: best move's, move played's
    if here is not None and there is not None:
        before, after, best, exact = here.values[seat], there.values[seat], here.best or move, True
        if here.plies is not None and there.plies is not None:
            ends_in, best_ends_in = there.plies + 1, here.plies
            if after == before:
                within = within_result_loss(before, best_ends_in, ends_in)
        if leads is not None and not within:  # (the distance to the end ties: the lead in points)
            best_lead, best, lead = leads
            within = within_lead_loss(before, best_lead, lead)
    else:
        sim = player.sim(state)
        played = next(m for m in sim.legal() if player.notation(sim, m) == move)
        budget = Budget(context.deadline(began), context.iterations)
        top, top_value, after, spread = _uct_values(player, sim, context.rng(seat, state), budget, played)
        best = player.notation(sim, top)
        if there is not None:  # the move leads to a proved position
            after = there.values[seat]
            spread = _only_top(spread)
        before = max(top_value, after)
        if after >= top_value:
            best = move
        elif player.same_chances(state, seat, move, best):
            # the best move's mirror image: one value, estimated twice (or proved after the move)
            before = after = after if there is not None else before
            best = move
        exact = False
    loss = 0.0 if forced or move == best else max(0.0, before - after, within)
    grade, accuracy = sure_grade(loss, exact, None if exact else _total(spread))
    return MoveAnalysis(ply, seat, move, before, after, exact, best, before, loss, grade, accuracy, forced,
                        ends_in, best_ends_in, None if exact or spread is None else round(_total(spread), 6),
                        None if leads is None else leads[2], None if leads is None else leads[0])


def _total(spread: tuple[float, float] | None) -> float:
    """The standard error of a difference of two independent means."""
    return math.inf if spread is None else sqrt(spread[0] ** 2 + spread[1] ** 2)


def _only_top(spread: tuple[float, float] | None) -> tuple[float, float] | None:
    """The spread when the move played is proved and only the best move's value is estimated."""
    return None if spread is None else (spread[0], 0.0)


# -- UCT that keeps every seat's result -------------------------------------------


class _Node(Generic[S, M]):
    __slots__ = ("move", "sim", "mover", "moves", "children", "visits", "totals", "squares")

    def __init__(self, move: M | None, sim: S, moves: list[M] | None) -> None:
        self.move = move
        self.sim = sim
        self.mover = sim.mover()
        self.moves = moves  # candidates not yet expanded, best last
        self.children: list[_Node[S, M]] = []
        self.visits = 0
        self.totals = [0.0] * sim.players  # every seat's results through this node
        self.squares = 0.0  # the squares of the root's mover's results through this node


def _uct_values(player: AnyPlayer, root: S, rng: random.Random, budget: Budget,
                played: M) -> tuple[M, float, float, tuple[float, float] | None]:
    """The strong player's UCT (the same candidates, widening and rollouts),
    backing up every seat's result (each node chooses for its own mover, as
    in max^n), with the root's move `played` searched every FORCE_EVERY-th
    iteration whatever its value. The best move (the most visited, not
    counting those forced iterations), its mean result for the root's mover,
    the played move's, and the standard error of each mean (None when a
    move had fewer than two iterations)."""
    me = root.mover()
    order = [m for m in reversed(player.candidates(root, me, rng)) if m != played]
    top: _Node[S, M] = _Node(None, root, order)
    mine: _Node[S, M] | None = None
    extra = 0  # iterations forced through the played move
    done = 0
    while not budget.spent(done):
        done += 1
        node = top
        path = [top]
        fresh = False
        if mine is None or done % FORCE_EVERY == 0:
            if mine is None:
                sim = root.copy()
                sim.play(played)
                mine = _Node(played, sim, None)
                top.children.append(mine)
                fresh = True
            else:
                extra += 1
            node = mine
            path.append(node)
        while node.mover >= 0 and not fresh:
            if node.moves is None:
                node.moves = list(reversed(player.candidates(node.sim, node.mover, rng)))
            if node.moves and len(node.children) < player.widen_base + player.widen * sqrt(node.visits):
                sim = node.sim.copy()
                sim.play(node.moves[-1])
                child: _Node[S, M] = _Node(node.moves.pop(), sim, None)
                node.children.append(child)
                path.append(child)
                node = child
                break
            log_n = math.log(node.visits + 1)
            mover = node.mover
            best, best_value = node, -1.0
            for c in node.children:
                value = c.totals[mover] / c.visits + UCT_C * sqrt(log_n / c.visits) if c.visits else 1e9
                if value > best_value:
                    best, best_value = c, value
            node = best
            path.append(node)
        outcome = simulate(player, node.sim.copy(), rng)
        for n in path:
            n.visits += 1
            n.squares += outcome[me] * outcome[me]
            for s, r in enumerate(outcome):
                n.totals[s] += r
    if mine is None or not mine.visits:  # no iteration ran: nothing is known
        even = 1.0 / root.players
        return played, even, even, None
    played_value = mine.totals[me] / mine.visits

    def rank(c: _Node[S, M]) -> tuple[int, float]:
        visits = c.visits - extra if c is mine else c.visits
        return visits, c.totals[me] / max(c.visits, 1)

    chosen = max(top.children, key=rank)
    assert chosen.move is not None  # (every child was reached by a move)
    errors = (_error(chosen, me), _error(mine, me))
    spread = None if None in errors else (float(errors[0] or 0.0), float(errors[1] or 0.0))
    return chosen.move, chosen.totals[me] / max(chosen.visits, 1), played_value, spread


def _error(node: _Node[S, M], me: int) -> float | None:
    """The standard error of the mean result of `me` through `node`."""
    n = node.visits
    if n < 2:
        return None
    mean = node.totals[me] / n
    variance = max(0.0, (node.squares - n * mean * mean) / (n - 1))
    return sqrt(variance / n)


def table(report: Analysis, names: Sequence[str] | None = None) -> str:
    """The report as text: one line a move, then each seat's accuracy and classes."""
    def name(seat: int) -> str:
        return names[seat] if names else f"Player {seat + 1}"

    lines = [f"{'ply':>4}  {'mover':<10} {'move':<10} {'before':>6} {'after':>6}  {'exact':<5}  {'best':<10} {'class':<10}"]
    for m in report.moves:
        lines.append(
            f"{m.ply:>4}  {name(m.seat):<10.10} {m.move:<10.10} {m.before:>6.3f} {m.after:>6.3f}  "
            f"{'yes' if m.exact else 'no':<5}  {m.best_move:<10.10} {m.grade + (' (forced)' if m.forced else ''):<10}"
        )
    lines.append("")
    for seat, acc in enumerate(report.accuracy):
        counts = report.counts(seat)
        listed = ", ".join(f"{n} {k}" for k, n in counts.items() if n)
        lines.append(f"{name(seat)}: accuracy {'—' if acc is None else f'{acc:.1f}%'} ({listed or 'no moves'})")
    if report.remark and report.one_sided():
        lines.append(f"Why the marks are one-sided: {report.remark}")
    return "\n".join(lines)
