"""Computer players for Nonconformity: simultaneous secret picks.

Greedy scores now and widens its own span (the opponent's scoring band) as
little as it can; strong plays out its candidate picks (flat Monte-Carlo),
the opponent's pick of this round drawn from a noisy-greedy model (its real
pending pick is never seen: the state the players get has it removed), both
continuing noisy-greedy to the end, and keeps the best by successive halving
on common random numbers: every pick still in is played out on the same
seeds, so picks are compared on the same luck.

The last two rounds are proved (`exact_joint`). A pick scores against the
other seat's earlier terms only, so in the last round each seat simply
scores if any legal pick of its own can; one round before, every pick of
the seat is tried against every pick of the other, and each pair is scored
with what both can still score after it.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache

from ..base import State
from ..games.nonconformity import MIN_PICK, NonconformityState, legal_pick, scores_against, widened
from ..numbers import prime_factors
from .search import Budget, Player, StateSim, Verdict, affordable, halving, paired_difference, paired_means

__all__ = ["PLAYER", "NonconformityPlayer", "NonconformitySim"]

STRONG_CANDIDATES = 16  # picks strong weighs against each other
MODEL_NOISE = 0.1  # how often the opponent model picks a random candidate instead of the greedy one
SAMPLE_TRIES = 20_000
JOINT_ROUNDS = 2  # rounds left at most for `exact_joint` to prove a pick


class NonconformitySim:
    """What a seat may know of a Nonconformity position, as plain data that a
    rollout changes cheaply: revealed terms, spans, last primes and points."""

    __slots__ = ("terms", "spans", "factors", "last", "points", "left", "top", "stuck")

    def __init__(self, state: NonconformityState) -> None:
        self.terms = [set(q) for q in state.owned]
        self.spans = list(state.spans)
        self.factors = list(state.factors)
        self.last = [q[-1] for q in state.seqs]
        self.points = list(state.points)
        self.left = state.rounds - state.played
        self.top = state.max_pick
        self.stuck = list(state.stuck)

    def copy(self) -> NonconformitySim:
        new = object.__new__(NonconformitySim)
        new.terms = [set(t) for t in self.terms]
        new.spans, new.factors, new.last, new.points = self.spans[:], self.factors[:], self.last[:], self.points[:]
        new.left, new.top, new.stuck = self.left, self.top, self.stuck
        return new

    def legal(self, seat: int, pick: int) -> bool:
        return legal_pick(pick, self.last[seat], self.terms[seat], self.top)

    def scores_with(self, seat: int, pick: int) -> bool:
        return scores_against(pick, self.spans[1 - seat], self.terms[1 - seat])

    def widening(self, seat: int, pick: int) -> int:
        low, high = self.spans[seat]
        return max(0, low - pick) + max(0, pick - high)

    def candidates(self, seat: int, rng: random.Random, per: int = 6) -> list[int]:
        """A handful of legal picks worth thinking about: multiples of the last
        term's primes inside the opponent's band (they score), inside the own
        span (they widen nothing), and just outside the own span."""
        found = self.multiples(seat, rng, per)
        # Every number found is a multiple of a prime of the seat's last term
        # (`factors`), so it shares a factor with that term: of `legal_pick`'s
        # conditions only the range and the seat's own terms are left to check
        # (this filter runs for every pick of every playout; tested against
        # `legal_pick`).
        top, terms = self.top, self.terms[seat]
        out = [x for x in found if MIN_PICK <= x <= top and x not in terms]
        if not out:
            # None of those is legal: one legal pick at random, from the list of
            # them all (every multiple of the last term's primes in range), not
            # by rejection sampling, whose 20,000 tries when a seat has no legal
            # pick left cost a playout 0.6 s and a 0.2 s move over 1 s (issue 55)
            legal = sorted({x for p in self.factors[seat] for x in range(-(-MIN_PICK // p) * p, top + 1, p)
                            if x not in terms})
            out = [legal[int(rng.random() * len(legal))]] if legal else []
        return sorted(out)

    def multiples(self, seat: int, rng: random.Random, per: int) -> set[int]:
        """The numbers `candidates` chooses from, before the legal ones are kept."""
        found: set[int] = set()
        low, high = self.spans[1 - seat]
        mine_low, mine_high = self.spans[seat]
        top, rand = self.top, rng.random
        for p in self.factors[seat]:
            both = (max(low + 1, mine_low), min(high - 1, mine_high))  # scores and widens nothing
            for a, b in ((low + 1, high - 1), (mine_low, mine_high), both):
                a, b = max(a, MIN_PICK), min(b, top)
                first, last = -(-a // p), b // p
                if first > last:
                    continue
                count = last - first + 1
                if count <= per:
                    found.update(range(first * p, last * p + 1, p))
                else:  # the ends and a few at random
                    found.add(first * p)
                    found.add(last * p)
                    found.update([(first + int(rand() * count)) * p for _ in range(per)])
            # the nearest multiples outside the own span
            below = (mine_low - 1) // p
            above = mine_high // p + 1
            found.update((below * p, (below - 1) * p, above * p, (above + 1) * p))
        return found

    def sample(self, seat: int, rng: random.Random) -> int | None:
        """A uniformly random legal pick (rejection sampling), None if none was found."""
        for _ in range(SAMPLE_TRIES):
            x = rng.randint(MIN_PICK, self.top)
            if self.legal(seat, x):
                return x
        return None

    def greedy(self, seat: int, rng: random.Random, picks: list[int] | None = None) -> int | None:
        picks = self.candidates(seat, rng) if picks is None else picks
        if not picks:
            return None
        # A pick that scores if there is one, widening the own span least; ties at random.
        span, theirs = self.spans[1 - seat], self.terms[1 - seat]
        pool = [x for x in picks if scores_against(x, span, theirs)] or picks
        low, high = self.spans[seat]
        widths = [low - x if x < low else x - high if x > high else 0 for x in pool]
        least = min(widths)
        ties = [x for x, w in zip(pool, widths) if w == least]
        return ties[int(rng.random() * len(ties))]

    def reveal(self, picks: list[int | None]) -> None:
        """Add a round's picks (None: sat out), each scored against the
        opponent's terms from before the round."""
        gained = [p is not None and self.scores_with(s, p) for s, p in enumerate(picks)]
        for s, p in enumerate(picks):
            if p is None:
                continue
            self.points[s] += gained[s]
            self.terms[s].add(p)
            self.spans[s] = widened(self.spans[s], p)
            self.last[s] = p
            self.factors[s] = _primes(p)
        self.left -= 1


Reach = tuple[int, int, int, int]  # scoring picks (0, 1 or 2 for more), the one if one, the nearest below and above the band


def _reach(primes: tuple[int, ...], mine: frozenset[int], band: tuple[int, int], theirs: frozenset[int],
           top: int) -> Reach:
    """What a seat whose last term has the prime factors `primes` and whose
    terms are `mine` can score next round against the band `band` of the
    other seat's terms `theirs`: how many legal picks score (up to 2), the
    one when there is one (else 0), and the nearest legal picks outside
    `theirs` below and above the band (0 and top + 1 when none), which
    score once the other seat's pick of this round widens the band past them."""
    low, high = band
    count = _scoring(primes, mine, band, theirs, top, 2)
    one = 0
    if count == 1:
        one = next(x for p in primes for x in range(max((low // p + 1) * p, p), min(high - 1, top) + 1, p)
                   if x not in mine and x not in theirs)
    def free(x: int) -> bool:
        return x not in mine and x not in theirs

    below = max((next((x for x in range((low - 1) // p * p, MIN_PICK - 1, -p) if free(x)), 0) for p in primes),
                default=0)
    above = min((next((x for x in range(-(-(high + 1) // p) * p, top + 1, p) if free(x)), top + 1) for p in primes),
                default=top + 1)
    return count, one, below, above


def _scores_next(reach: Reach, band: tuple[int, int], pick: int) -> bool:
    """Whether a seat with `reach` (against the other seat's `band`) can
    score next round once the other seat has picked `pick` this round: the
    pick widens the band, and joins the terms a scoring pick must avoid."""
    count, one, below, above = reach
    low, high = band
    if count >= 2:
        return True
    if low < pick < high:
        return count == 1 and pick != one
    if count == 1:
        return True
    return below > pick if pick < low else above < pick


def _scoring(primes: tuple[int, ...], mine: frozenset[int], band: tuple[int, int], theirs: frozenset[int],
             top: int, enough: int) -> int:
    """How many legal picks (up to `enough`) a seat whose last term has the
    prime factors `primes`, and whose terms are `mine`, has strictly inside
    `band` and outside `theirs`: the picks that would score. Each multiple
    of any of the primes is counted once."""
    low, high = band
    found: set[int] = set()
    for p in primes:
        for x in range(max((low // p + 1) * p, p, MIN_PICK), min(high - 1, top) + 1, p):
            if x not in mine and x not in theirs:
                found.add(x)
                if len(found) >= enough:
                    return enough
    return len(found)


@lru_cache(maxsize=1 << 14)
def _primes(n: int) -> tuple[int, ...]:
    return prime_factors(n)


class NonconformityPlayer(Player[NonconformityState, StateSim, str]):
    # A page's analysis runs on the time budget: 300 playouts a pick cost
    # about 0.4 s a move in CPython here and four times that in Pyodide.
    analysis_iterations = None
    analysis_remark = (
        "Both players pick in secret and at the same time, so each pick is judged on its chances against "
        "every pick the other might have made, not on the pick it met. A blunder can still meet a pick that "
        "lets it through, and a pick with no mark can meet one that beats it: that luck is no one's mistake, "
        "and it is where the chart jumps with no mark on either side. So the marks say how well each side "
        "chose, and the result what the picks met.")

    def random_move(self, state: NonconformityState, seat: int, rng: random.Random) -> str:
        pick = NonconformitySim(state).sample(seat, rng)
        if pick is None:  # a prime near max_pick: few legal picks; list them
            return rng.choice(state.legal_moves(seat))
        return str(pick)

    def greedy_move(self, state: NonconformityState, seat: int, rng: random.Random) -> str:
        pick = NonconformitySim(state).greedy(seat, rng)
        return str(pick) if pick is not None else rng.choice(state.legal_moves(seat))

    def _policy(self, sim: NonconformitySim, seat: int, rng: random.Random) -> int | None:
        if sim.stuck[seat]:
            return None
        # Mostly greedy: a real player takes the points on offer.
        if rng.random() < MODEL_NOISE:
            picks = sim.candidates(seat, rng, per=3)
            return rng.choice(picks) if picks else None
        return sim.greedy(seat, rng, sim.candidates(seat, rng, per=3))

    def strong_move(self, state: NonconformityState, seat: int, rng: random.Random, budget: Budget) -> str:
        root = NonconformitySim(state)
        picks = root.candidates(seat, rng, per=10)
        if not picks:
            return self.random_move(state, seat, rng)
        if len(picks) == 1:
            return str(picks[0])
        picks = self.best_candidates(root, seat, picks)

        def sample(i: int, seed: int) -> float:
            return self.playout(root, seat, picks[i], random.Random(seed))

        samples = affordable(budget, lambda: sample(0, rng.getrandbits(64)))
        # the budget is kept even when the playouts turn out slower than the ones timed
        deadline = None if budget.iterations is not None else budget.deadline
        return str(picks[halving(len(picks), sample, samples, rng, deadline)[0]])

    def judge(self, state: NonconformityState, seat: int, move: str, rng: random.Random, budget: Budget) -> Verdict | None:
        """A pick judged on what its mover could know (`state` is already the
        mover's secret-free view), by the strong player's own method: its
        candidate picks and the pick played (arm 0) played out, the
        opponent's pick of the round and every later pick drawn from the
        strong player's model. Half the playouts find the best pick
        (successive halving on common random numbers, as strong chooses);
        the other half measure it and the pick played on the same fresh
        seeds, so before and after differ by the picks and not by the luck
        of the draws, and the best pick's value is not the lucky maximum of
        the selection."""
        root = NonconformitySim(state)
        played = int(move)
        assert legal_pick(played, root.last[seat], root.terms[seat], root.top)
        forced = len(state.legal_moves(seat)) == 1
        picks = root.candidates(seat, rng, per=10)
        picks = self.best_candidates(root, seat, picks)  # the strong player's own pruning
        if played in picks:
            picks.remove(played)
        arms = [played, *picks]

        def sample(i: int, seed: int) -> float:
            return self.playout(root, seat, arms[i], random.Random(seed))

        samples = affordable(budget, lambda: sample(0, rng.getrandbits(64)))
        top, used = halving(len(arms), sample, samples // 2, rng) if not forced else (0, 0)
        if top == 0:
            after = before = paired_means([0], sample, samples - used, rng)[0]
            return Verdict(before, after, move, 0.0)
        before, after, spread = paired_difference(top, 0, sample, (samples - used) // 2, rng)
        if after >= before:
            return Verdict(after, after, move, 0.0, spread)
        return Verdict(before, after, str(arms[top]), before - after, spread)

    def exact_joint(self, state: NonconformityState, seat: int, deadline: float) -> dict[str, tuple[float, str]] | None:
        """With at most `JOINT_ROUNDS` rounds left and both seats to pick (no
        pick chosen yet): every pick of `seat` with its proved result against
        every pick of the other seat (the last round played best by both),
        and the other's pick that holds it there, the first of the worst in
        the order of `_danger` (so the same on every run). None otherwise."""
        other = 1 - seat
        left = state.rounds - state.played
        if state.is_over or state.to_move != (0, 1) or not 1 <= left <= JOINT_ROUNDS:
            return None
        mine, theirs = [int(m) for m in state.legal_moves(seat)], [int(m) for m in state.legal_moves(other)]
        ahead = state.points[seat] - state.points[other]
        span, owned = state.spans, state.owned
        top = state.max_pick
        # What each pick leaves its seat for the last round (`_reach`), the
        # other seat's band as it stands: with two scoring picks or more the
        # seat surely scores then, whatever the other seat picks now.
        reach_a = {a: _reach(_primes(a), owned[seat] | {a}, span[other], owned[other], top) for a in mine}
        reach_b = {b: _reach(_primes(b), owned[other] | {b}, span[seat], owned[seat], top) for b in theirs}
        now = {b: scores_against(b, span[seat], owned[seat]) for b in theirs}
        sure = {b: left > 1 and reach_b[b][0] >= 2 for b in theirs}
        order = sorted(theirs, key=lambda b: (-(now[b] + sure[b]), b))  # the most dangerous first
        # Against a pick that surely scores next round too, the other seat's
        # sure picks differ only in whether they score now: the first of them
        # stands for them all.
        first_sure = next((b for b in order if sure[b]), None)
        against_later = [b for b in order if not sure[b] or b == first_sure]
        proved: dict[str, tuple[float, str]] = {}
        for a in mine:
            gain = scores_against(a, span[other], owned[other])
            later = left > 1 and reach_a[a][0] >= 2
            floor = ahead + gain - 1 + later - (left > 1)  # the worst any pick of the other seat can do
            worst, reply = None, order[0]
            for b in (against_later if later else order):
                margin = ahead + gain - now[b]
                if left > 1:
                    margin += _scores_next(reach_a[a], span[other], b) - _scores_next(reach_b[b], span[seat], a)
                if worst is None or margin < worst:
                    worst, reply = margin, b
                    if worst <= floor:
                        break
            assert worst is not None
            proved[str(a)] = (1.0 if worst > 0 else 0.5 if worst == 0 else 0.0, str(reply))
        return proved

    def best_candidates(self, root: NonconformitySim, seat: int, picks: list[int]) -> list[int]:
        """The STRONG_CANDIDATES most promising picks: the greedy key plus a flexibility bonus."""
        def prior(x: int) -> float:
            return root.scores_with(seat, x) - 0.02 * math.log1p(root.widening(seat, x)) + 0.1 * (x % 2 == 0)

        return sorted(picks, key=prior, reverse=True)[:STRONG_CANDIDATES]

    def playout(self, root: NonconformitySim, seat: int, pick: int, rng: random.Random) -> float:
        """`seat`'s result (1, 0.5 or 0) of one playout from `root` in which it
        picks `pick` now and both seats then follow the model policy."""
        sim = root.copy()
        other = 1 - seat
        mine: int | None = pick
        theirs = self._policy(sim, other, rng)
        while True:
            both: list[int | None] = [None, None]
            both[seat], both[other] = mine, theirs
            sim.reveal(both)
            if sim.left <= 0:
                break
            mine = self._policy(sim, seat, rng)
            theirs = self._policy(sim, other, rng)
            if mine is None and theirs is None:
                break
        diff = sim.points[seat] - sim.points[other]
        return 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0


PLAYER = NonconformityPlayer()
