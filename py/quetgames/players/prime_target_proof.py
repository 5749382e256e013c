"""Prime Target's ring phase proved: the exact margin two seats can force.

With two seats the rings alternate, and what a seat wants from the rings
left is the largest final difference between its points and the other
seat's (a win is a positive difference, a shared win none): the ring phase
is a zero-sum game on that difference, solved here by negamax with
alpha-beta. The value of a position for the seat completing the next ring
is ``margin(inner, left)``: the best difference it can force over the other
seat from the rings still to complete outside `inner`.

Three things make it quick enough for a move's budget:

- the last ring needs no search: its best score is read wedge by wedge
  (`last_ring_best`), as many primes as the wedges allow, or one lone
  prime, the largest on offer;
- with two rings left, a ring that scores no more than the best difference
  found so far cannot beat it (the other seat's last ring scores at least
  0), so the rings are tried best score first and the rest are cut;
- alpha-beta windows cut a ring as soon as one answer shows it cannot
  beat the best found.

At the default settings (8 wedges, two rings each) the first ring is not
searched but read from a table (games/prime_target_table.py, built by
tools/prime_target_table.py): the search proves three rings from the end
within a move's budget, the table the fourth.

Every search takes a deadline and gives up past it (`OutOfTime`), so a
proof that cannot finish within the budget is never waited for.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from functools import lru_cache

from ..numbers import is_prime
from .search import OutOfTime

__all__ = ["margin", "best_rings", "centre_margin", "against", "last_ring_best", "ring_choices", "NO_DEADLINE"]

NO_DEADLINE = float("inf")
_CLOCK_EVERY = 15  # nodes between looks at the clock (a mask: every 16th node; a node lists 256 rings)

_PRIME_LIMIT = 1 << 12
_PRIME = [is_prime(n) for n in range(_PRIME_LIMIT)]


def _prime(n: int) -> bool:
    return _PRIME[n] if n < _PRIME_LIMIT else is_prime(n)


def ring_choices(inner: Sequence[int]) -> list[tuple[int, int]]:
    """Per wedge of the next ring, (sum, difference) of the two numbers inside
    it: the wedge itself and its clockwise neighbour. Where the two agree (a
    0 inside) both entries are the same number."""
    n = len(inner)
    return [(inner[w] + inner[(w + 1) % n], abs(inner[w] - inner[(w + 1) % n])) for w in range(n)]


def _score(ring: Sequence[int]) -> int:
    first, count = 0, 0
    for v in ring:
        if _prime(v):
            count += 1
            first = first or v
    return first if count == 1 else count


def _offer(a: int, b: int) -> int:
    """What the wedge over a and b offers a ring: 0 for no prime, else its
    largest prime times 2, plus 1 when both choices are prime (the wedge
    holds a prime whatever is chosen)."""
    total = a + b
    difference = a - b if a > b else b - a
    on_total, on_difference = _prime(total), _prime(difference)
    if not (on_total or on_difference):
        return 0
    return (total if on_total else difference) << 1 | (on_total and on_difference)


_SPAN = 64  # the pairs below it read from a list (every pair a default game's last ring meets)
_OFFERS: list[int] = []


def _offers() -> list[int]:
    if not _OFFERS:
        _OFFERS.extend(_offer(a, b) for a in range(_SPAN) for b in range(_SPAN))
    return _OFFERS


def last_ring_best(inner: Sequence[int]) -> int:
    """The best score the next ring outside `inner` can make: every wedge
    where a prime can go holds one (a count), or exactly one wedge does (the
    prime's value), whichever is more. A wedge whose two choices are both
    prime holds a prime whatever is chosen."""
    pairs = zip(inner, (*inner[1:], inner[0]))
    if max(inner) < _SPAN:
        offers, span = _offers(), _SPAN
        found = [c for c in [offers[a * span + b] for a, b in pairs] if c]
    else:
        found = [c for c in [_offer(a, b) for a, b in pairs] if c]
    if not found:
        return 0
    count = len(found)
    forced = [c for c in found if c & 1]
    if len(forced) >= 2:
        return count
    lone = (forced[0] if forced else max(found)) >> 1
    return count if count >= 2 and count > lone else lone


def best_scoring_ring(inner: Sequence[int]) -> tuple[int, ...]:
    """A ring outside `inner` of the best score (`last_ring_best`): a prime
    wherever one can be had, or the one largest prime on offer with no other
    prime, whichever scores more."""
    choices = ring_choices(inner)
    most = [t if _prime(t) or not _prime(d) else d for t, d in choices]
    plain = [d if _prime(t) and not _prime(d) else t for t, d in choices]  # as few primes as can be
    count = sum(map(_prime, most))
    best, ring = (count if count != 1 else -1), most
    forced = [w for w, v in enumerate(plain) if _prime(v)]
    for w, (t, d) in enumerate(choices):
        if forced and forced != [w]:
            continue
        for v in (t, d):
            if _prime(v) and v > best:
                best, ring = v, plain[:w] + [v] + plain[w + 1:]
    return tuple(ring)


class _Rings:
    """The rings outside one ring in notation order, each made when asked
    for (a search looks at a few of them, best score first): ring i takes,
    wedge by wedge from the last, the choice the next bit of i names, where
    the wedge has two."""

    __slots__ = ("options",)

    def __init__(self, options: list[tuple[int, ...]]) -> None:
        self.options = options

    def __getitem__(self, i: int) -> tuple[int, ...]:
        ring = []
        for choices in reversed(self.options):
            if len(choices) == 1:
                ring.append(choices[0])
            else:
                ring.append(choices[i & 1])
                i >>= 1
        ring.reverse()
        return tuple(ring)


def _children(inner: Sequence[int]) -> tuple[list[int], _Rings, list[int], int]:
    """Every distinct ring outside `inner` in notation order (wedge 1's sign
    first): their scores, the rings, the order of best score first (equal
    scores in notation order), and the wedges whose two choices agree (bit
    w: wedge w + 1), which `_masks` turns into the ring moves."""
    options: list[tuple[int, ...]] = []
    partial = [(0, 0)]  # per ring so far, in notation order: its primes, and the largest
    same = 0
    for w, (total, difference) in enumerate(ring_choices(inner)):
        found = (total if _prime(total) else 0,) if total == difference else \
            (total if _prime(total) else 0, difference if _prime(difference) else 0)
        options.append((total,) if total == difference else (total, difference))
        if total == difference:
            same |= 1 << w
        partial = [(k + 1, p if p > top else top) if p else (k, top) for k, top in partial for p in found]
    scores = [top if k == 1 else k for k, top in partial]
    order = sorted(range(len(scores)), key=scores.__getitem__, reverse=True)  # stable
    return scores, _Rings(options), order, same


@lru_cache(maxsize=64)
def _masks(rays: int, same: int) -> list[int]:
    """The ring moves in notation order, as masks, wedges in `same` taking only the sum."""
    bits = [(0,) if same >> w & 1 else (0, 1 << w) for w in range(rays)]
    return [sum(m) for m in itertools.product(*bits)]


class _Search:
    """One proof: the deadline and the nodes visited so far."""

    __slots__ = ("deadline", "nodes")

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self.nodes = 0

    def tick(self) -> None:
        self.nodes += 1
        if not self.nodes & _CLOCK_EVERY and self.deadline != NO_DEADLINE and time.perf_counter() > self.deadline:
            raise OutOfTime

    def value(self, inner: tuple[int, ...], left: int, alpha: float, beta: float) -> int:
        """The margin of the seat completing the next ring (negamax): exact
        when it falls inside (alpha, beta), else a bound on the same side."""
        if left == 1:
            return last_ring_best(inner)
        if left == 2:
            # No ring outside `inner` scores more than the last ring's best
            # score there, and the other seat's last ring scores at least 0:
            # a bound that spares listing the rings when it is low enough.
            ceiling = last_ring_best(inner)
            if ceiling <= alpha:
                return ceiling
            # One ring of that best score, answered by the other seat's best
            # last ring, often refutes the window at once (fails high).
            floor = ceiling - last_ring_best(best_scoring_ring(inner))
            if floor >= beta:
                return floor
        self.tick()
        scores, rings, order, _ = _children(inner)
        best = -(1 << 40)
        if left == 2:
            for i in order:
                score = scores[i]
                if score <= best:
                    break  # the other seat's last ring scores at least 0
                value = score - last_ring_best(rings[i])
                if value > best:
                    best = value
                    if best >= beta:
                        break
            return best
        for i in order:
            score = scores[i]
            value = score - self.value(rings[i], left - 1, score - beta, score - max(alpha, best))
            if value > best:
                best = value
                if best >= beta:
                    break
        return best


def margin(inner: Sequence[int], left: int, deadline: float = NO_DEADLINE) -> int:
    """The best difference the seat completing the next ring outside `inner`
    can force over the other seat, `left` rings still to complete, the two
    seats taking turns. Raises OutOfTime past `deadline` (time.perf_counter)."""
    return _Search(deadline).value(tuple(inner), left, -(1 << 40), 1 << 40)


def best_rings(inner: Sequence[int], left: int, deadline: float = NO_DEADLINE) -> tuple[int, list[int]]:
    """The proved margin of the seat completing the next ring and every ring
    move (a mask: bit w set, the difference in wedge w + 1) that keeps it,
    in notation order. Raises OutOfTime past `deadline`."""
    search = _Search(deadline)
    scores, rings, order, same = _children(inner)
    masks = _masks(len(inner), same)
    if left == 1:
        best = scores[order[0]]
        return best, [masks[i] for i in range(len(scores)) if scores[i] == best]
    best = -(1 << 40)
    keep: list[int] = []
    for i in order:
        score = scores[i]
        if left == 2 and score < best:
            break
        # a window one wider than the best so far proves ties as well
        value = score - search.value(rings[i], left - 1, score - (1 << 40), score - best + 1)
        if value > best:
            best, keep = value, [i]
        elif value == best:
            keep.append(i)
    return best, [masks[i] for i in sorted(keep)]


def centre_margin(centre: Sequence[int], first_margin: Callable[[tuple[int, ...]], int],
                  deadline: float = NO_DEADLINE) -> tuple[int, list[tuple[int, int]]]:
    """For a centre still filling (0: an empty wedge), two seats taking turns
    from Player 1: the margin Player 1 forces over Player 2 by the end of the
    game, and every centre move (value, wedge from 1) of the seat to move that
    keeps it, in the order of the legal moves. `first_margin` gives Player 1's
    margin from a full centre (the table). Raises OutOfTime past `deadline`."""
    search = _Search(deadline)
    cells = list(centre)

    def value(alpha: float, beta: float) -> int:  # Player 1's margin, alpha-beta
        values = [v for v in range(1, len(cells) + 1) if v not in cells]
        if not values:
            return first_margin(tuple(cells))
        search.tick()
        first = (len(cells) - len(values)) % 2 == 0
        best = -(1 << 40) if first else 1 << 40
        for v in values:
            for w, held in enumerate(cells):
                if held:
                    continue
                cells[w] = v
                found = value(alpha, beta)
                cells[w] = 0
                if first:
                    best = max(best, found)
                    alpha = max(alpha, best)
                else:
                    best = min(best, found)
                    beta = min(beta, best)
                if alpha >= beta:
                    return best
        return best

    values = [v for v in range(1, len(cells) + 1) if v not in cells]
    first = (len(cells) - len(values)) % 2 == 0
    results: list[tuple[int, tuple[int, int]]] = []
    best: int | None = None
    for v in values:
        for w, held in enumerate(cells):
            if held:
                continue
            cells[w] = v
            # a window one wider than the best so far proves ties as well
            if best is None:
                found = value(-(1 << 40), 1 << 40)
            elif first:
                found = value(best - 1, 1 << 40)
            else:
                found = value(-(1 << 40), best + 1)
            cells[w] = 0
            results.append((found, (v, w + 1)))
            if best is None or (found > best if first else found < best):
                best = found
    assert best is not None
    return best, [move for found, move in results if found == best]


def against(inner: Sequence[int], left: int, target: int, deadline: float = NO_DEADLINE) -> tuple[int, int]:
    """How the best difference the seat completing the next ring outside
    `inner` can force compares with `target` (1 above, 0 equal, -1 below),
    and a ring move (a mask) that keeps that comparison: the first, best
    immediate score first, that forces more than `target` (1) or exactly
    `target` (0), else the first ring of all (-1). One search with a window
    two wide around `target` answers all three (far cheaper than the margin
    itself, whose window is open), and finds the ring on the way. Raises
    OutOfTime past `deadline`."""
    search = _Search(deadline)
    scores, rings, order, same = _children(inner)
    masks = _masks(len(inner), same)
    best, ring = -(1 << 40), order[0]
    for i in order:
        score = scores[i]
        if left == 2 and score <= max(target - 1, best):
            break  # the other seat's last ring scores at least 0: no later ring does better
        if left == 1:
            value = score
        else:
            # exact inside (max(target - 1, best), target + 1), a bound outside
            value = score - search.value(rings[i], left - 1, score - target - 1, score - max(target - 1, best))
        if value > best:
            best, ring = value, i
            if best > target:
                break
    found = 1 if best > target else 0 if best == target else -1
    return found, masks[ring if found >= 0 else order[0]]
