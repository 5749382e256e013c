"""Prime Target, a game by Leroy Quet.

A target of concentric rings is cut into `rays` wedges. The seats first write
a permutation of 1…rays into the centre ring, one number a move. Then each
move completes the innermost empty ring: every wedge gets either the sum or
the absolute difference of the two numbers just inside it (the wedge itself
and its clockwise neighbour). A ring scores the number of its wedges holding a
prime, or the prime's value when exactly one wedge holds a prime.

Geometry: wedges are numbered 1…rays clockwise, wedge 1 lying just clockwise
of the top ray. Wedge w of a new ring combines wedges w and w+1 of the ring
inside it (wedge rays wraps round to wedge 1).

Notation:

- centre move: ``value@wedge``, e.g. ``5@3`` writes 5 in wedge 3 of the centre.
- ring move: one sign per wedge, wedge 1 first: ``+`` for the sum, ``-`` for
  the difference, e.g. ``+-++-+-+``. Where one of the two inner numbers is 0
  the sum and the difference are equal; such a wedge is written ``+``.
  `play` also accepts ``-`` there, but history and record keep the ``+``.

Legal-move order: centre moves by value, then by wedge (``1@1, 1@2, …, 2@1,
…``); ring moves once per distinct resulting ring, in ASCII order of the
signs (``+`` before ``-``, so the all-sums ring comes first).

`PrimeTargetState.preview_ring(move)` scores a candidate ring move without
playing it (for a front end's live preview): it returns ``{"values": [...],
"primes": [bool per wedge], "score": int}`` or raises IllegalMove.

`view()["board"]` keys:

- ``rays``: number of wedges; ``ring_count``: rings in the target, centre included.
- ``phase``: ``"centre"``, ``"rings"`` or ``"over"``.
- ``rings``: the rings so far, centre first, each a list of ints wedge 1 first;
  centre wedges still empty are null.
- ``next_ring``: index in ``rings`` of the ring to fill now (0 while the centre
  fills), null once over.
- ``ring_scores``: one entry per completed ring, innermost first:
  ``{"ring": index, "seat": who completed it, "primes": [bool per wedge], "score": int}``.
- ``free_values`` / ``free_wedges``: during the centre phase, the numbers not
  yet written and the empty centre wedges, ascending (empty lists otherwise).
- ``inner``: during the ring phase, the values of the ring inside the one to
  fill (else null).
- ``choices``: during the ring phase, per wedge ``{"sum", "difference",
  "same", "sum_prime", "difference_prime"}`` (``same``: only ``+`` is written
  there); else null. The score of a whole ring comes from ``preview_ring``.
- ``legal_listed``: False when the view's ``legal_moves`` is left empty
  although the seat has moves: a ring with more than ``LIST_IN_VIEW`` sign
  patterns (11 or 12 rays), where the list would be most of every view's
  JSON and the board never shows it. A move still goes to the engine, which
  checks it, and ``legal_moves()`` still gives them all.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Sequence
from functools import lru_cache

from ..base import Example, Game, State, counted, in_words
from ..errors import IllegalMove, InvalidRecord
from ..numbers import is_prime
from ..options import IntOption
from ..data import JSONObject, Options

DIGITS36 = "0123456789abcdefghijklmnopqrstuvwxyz"
# Ring moves in a record: a bitmask (bit w-1 set = difference in wedge w) in two
# base-64 digits; rays <= 12 keeps every mask below 64 ** 2 = 4096.
DIGITS64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_CENTRE_MOVE = re.compile(r"([1-9][0-9]?)@([1-9][0-9]?)")
_RING_MOVE = re.compile(r"[+-]+")
LIST_IN_VIEW = 1024  # ring moves a view lists at most (see legal_listed); 8 rays have 256


class PrimeTarget(Game):
    id = "prime-target"
    code = "pt"
    name = "Prime Target"
    summary = (
        "Fill the centre of a target with the numbers from 1 up to its number of wedges, one "
        "per wedge, taking turns. "
        "Then take turns completing the next ring outward: each wedge gets the sum or the "
        "difference of the two numbers beneath it. A ring scores how many primes it "
        "holds, or the prime itself when it holds exactly one; the highest total wins."
    )
    rules = """\
**Players and target.** Two to six players share a target: a round centre with rings
around it, all cut into the same number of pie-slice wedges by lines running out from
the middle. The number of wedges in every ring is chosen before the game, from 4 to 12
(8 unless chosen otherwise). Wedges are numbered 1, 2, 3, … going clockwise, wedge 1
sitting just clockwise of the line that points straight up. Besides the centre, the
target has as many rings as the players complete between them: each player completes
the same number of rings, 2 to 5, also chosen before the game (2 unless chosen otherwise).

**Part one: the centre.** Starting with Player 1 and going round in seat order, each
move writes a whole number into an empty wedge of the centre: any number from 1 up to
the number of wedges that is not in the centre yet. Once every centre wedge is filled,
the centre holds each of those numbers exactly once (1 to 8 with eight wedges). The
centre scores for nobody.

**Part two: the rings.** Again from Player 1 in seat order, each move completes the
innermost ring that is still empty, all of it at once. Each of its wedges looks at two
numbers in the ring just inside: the one directly beneath it and the one beneath its
clockwise neighbour (the last wedge's neighbour is wedge 1). The player writes either
their sum or their difference (larger minus smaller) in that wedge, choosing
separately for every wedge.

**Scoring a ring.** Count the wedges of the new ring that hold a prime (2, 3, 5, 7,
11, …; 0 and 1 are not prime); the same prime in two wedges counts twice. That count
is the score for the ring, except when it is exactly 1: then the ring scores the value
of that one prime instead.

**End.** When the outermost ring is complete the game ends. The highest total wins;
equal totals share the win.

**Example.** In the target below (eight wedges) the centre reads 2, 6, 1, 3, 5, 4, 8, 7
from wedge 1 clockwise. Wedge 1 of the first ring sits outside the 2 and, clockwise of
it, the 6, so it takes 8 (2 + 6) or 4 (6 − 2). Player 1 wrote every sum: the ring
8, 7, 4, 8, 9, 12, 15, 9 holds one prime, 7, so it scores 7. Player 2 also wrote every
sum: the ring 15, 11, 12, 17, 21, 27, 24, 17 holds three primes (11 and 17 twice), so it
scores 3. Player 1 leads 7 to 3 with two rings to go.

**Notation.** A centre move is written value@wedge, like `5@3`. A ring move is one sign
per wedge, wedge 1 first: `+` for the sum, `-` for the difference, like `+-++-+-+`.
Where one of the two numbers is 0 the sum and difference agree, and that wedge is
written `+`.
"""
    examples = (
        Example("q1.pt.p2_k2_r8.2162133455468778AAAA", "Player 1's ring scores 7 (one prime, 7); Player 2's scores 3 (three primes)."),
    )
    options = (
        IntOption("players", "p", 2, "number of players", lo=2, hi=6),
        IntOption("k", "k", 2, "rings each player completes (the target has this many × players rings around its centre)", lo=2, hi=5, short="rings each"),
        IntOption("rays", "r", 8, "number of wedges in every ring", lo=4, hi=12, short="wedges"),
    )
    # the settings docs/BALANCE.md measures (balance.py)
    balance_settings = (
        *({"k": k, "rays": r} for k, r in ((2, 4), (2, 6), (2, 8), (3, 6), (3, 8), (2, 10))),
        *({"players": p, "rays": r} for p, r in ((3, 6), (3, 8), (4, 8))),
    )
    # the settings puzzles.py looks for puzzles in: the last two rings are proved
    puzzle_settings = ({}, {"rays": 6}, {"rays": 10}, {"k": 3, "rays": 6}, {"k": 3})
    puzzle_share = 1 / 3


class PrimeTargetState(State):
    __slots__ = ("centre", "rings", "ring_points")

    centre: tuple[int, ...]  # wedge values, 0 = still empty (the values are 1..rays)
    rings: tuple[tuple[int, ...], ...]  # completed rings outside the centre, innermost first
    ring_points: tuple[int, ...]  # what each completed ring scored

    @classmethod
    def initial(cls, game: Game, options: Options) -> PrimeTargetState:
        state = cls._blank(game, options)
        state.centre = (0,) * options["rays"]
        state.rings = ()
        state.ring_points = ()
        return state

    @property
    def rays(self) -> int:
        return int(self.options["rays"])

    @property
    def ring_total(self) -> int:
        """Rings to complete after the centre."""
        return int(self.options["k"]) * self.players

    @property
    def placed(self) -> int:
        return self.rays - self.centre.count(0)

    @property
    def opening(self) -> bool:
        return 0 in self.centre

    def _inner(self) -> tuple[int, ...]:
        return self.rings[-1] if self.rings else self.centre

    # -- turn order ------------------------------------------------------

    def _to_move(self) -> tuple[int, ...]:
        return to_move(self.players, self.ring_total, self.placed, len(self.rings), self.opening)

    # -- moves -----------------------------------------------------------

    def _legal(self, seat: int) -> list[str]:
        if self.opening:
            wedges = free_wedges(self.centre)
            return [f"{v}@{w}" for v in free_values(self.centre) for w in wedges]
        return list(_ring_moves(self.rays, same_mask(self._inner())))

    def _legal_for_view(self, seat: int | None) -> list[str]:
        if seat is not None and not self.is_over and not self._listed():
            return []
        return super()._legal_for_view(seat)

    def _listed(self) -> bool:
        """Whether a view lists this position's legal moves (see legal_listed)."""
        if self.is_over or self.opening:
            return True
        free = self.rays - bin(same_mask(self._inner())).count("1")  # wedges with two choices
        return 1 << free <= LIST_IN_VIEW

    def _apply(self, move: str, seat: int) -> PrimeTargetState:
        new = self._copy()
        if self.opening:
            value, wedge = self._parse_centre(move)
            centre = list(self.centre)
            centre[wedge - 1] = value
            new.centre = tuple(centre)
            new.history = self.history + (move,)
            return new
        ring, canonical = self._parse_ring(move)
        new.rings = self.rings + (ring,)
        new.ring_points = self.ring_points + (ring_score(ring),)
        new.history = self.history + (canonical,)
        return new

    def _parse_centre(self, move: str) -> tuple[int, int]:
        m = _CENTRE_MOVE.fullmatch(move)
        if m is None:
            if _RING_MOVE.fullmatch(move):
                raise IllegalMove(
                    f"the centre is not full yet ({self.placed} of {self.rays} numbers written): "
                    f"write a number as value@wedge, like '5@3', before completing rings"
                )
            raise IllegalMove(
                f"{move[:40]!r} is not a centre move: write a value from 1 to {self.rays}, '@' and a "
                f"wedge from 1 to {self.rays}, without spaces, signs or leading zeros, like '5@3'"
            )
        value, wedge = int(m.group(1)), int(m.group(2))
        if value > self.rays:
            raise IllegalMove(f"{value} cannot go in the centre: it takes the numbers 1 to {self.rays}")
        if wedge > self.rays:
            raise IllegalMove(f"there is no wedge {wedge}: the wedges are numbered 1 to {self.rays}")
        if value in self.centre:
            raise IllegalMove(f"{value} is already written in the centre, in wedge {self.centre.index(value) + 1}")
        if self.centre[wedge - 1]:
            raise IllegalMove(f"wedge {wedge} of the centre already holds {self.centre[wedge - 1]}")
        return value, wedge

    def _parse_ring(self, move: str) -> tuple[tuple[int, ...], str]:
        """The ring a ring move makes and the move's canonical spelling."""
        number = len(self.rings) + 1
        if not _RING_MOVE.fullmatch(move):
            if _CENTRE_MOVE.fullmatch(move):
                raise IllegalMove(
                    f"the centre is full: complete ring {number} instead, with one + (sum) or - "
                    f"(difference) per wedge, like {'+-' * (self.rays // 2) + '+' * (self.rays % 2)!r}"
                )
            raise IllegalMove(
                f"{move[:40]!r} is not a ring move: write one + (sum) or - (difference) for each of "
                f"the {self.rays} wedges, wedge 1 first, and nothing else"
            )
        if len(move) != self.rays:
            raise IllegalMove(f"{move[:40]!r} has {len(move)} signs, but ring {number} has {self.rays} wedges: write one sign per wedge")
        inner = self._inner()
        mask = signs_mask(move) & ~same_mask(inner)  # '-' where sum and difference agree is '+'
        return next_ring(inner, mask), ring_notation(mask, self.rays)

    def preview(self, move: str, seat: int | None = None) -> JSONObject:
        return self.preview_ring(move)

    def preview_ring(self, move: str) -> JSONObject:
        """What the ring move `move` would write and score, without playing it:
        ``{"values": [int per wedge], "primes": [bool per wedge], "score": int}``.
        Raises IllegalMove if no ring is to be completed now or `move` is not a
        ring move here (the same checks `play` makes)."""
        if not isinstance(move, str):
            raise IllegalMove(f"a move is written as text, not {type(move).__name__}")
        if self.is_over:
            raise IllegalMove("the game is over: there is no ring left to complete")
        if self.opening:
            raise IllegalMove(f"the centre is not full yet ({self.placed} of {self.rays} numbers written): no ring can be completed")
        if len(move) > 200:
            raise IllegalMove("that move is far too long to be a move of this game")
        ring, _ = self._parse_ring(move)
        return {"values": list(ring), "primes": [is_prime(v) for v in ring], "score": ring_score(ring)}

    # -- scoring ---------------------------------------------------------

    def _scores(self) -> tuple[int, ...]:
        scores = [0] * self.players
        for j, points in enumerate(self.ring_points):
            scores[j % self.players] += points
        return tuple(scores)

    # -- presentation ----------------------------------------------------

    def _status(self) -> str:
        if self.is_over:
            return self._ending()
        who = self.seat_name(self.to_move[0])
        if self.opening:
            return f"{who} to write a number in the centre ({self.placed} of {self.rays} written)"
        return f"{who} to complete ring {len(self.rings) + 1} of {self.ring_total}"

    def _describe(self, move: str, seat: int, after: PrimeTargetState) -> str:
        who = after.seat_name(seat)
        if self.opening:
            value, wedge = self._parse_centre(move)
            return f"{who} wrote {value} in wedge {wedge} of the centre"
        ring, points = after.rings[-1], after.ring_points[-1]
        primes = [str(v) for v in ring if is_prime(v)]
        found = "no prime" if not primes else f"the prime {primes[0]}" if len(primes) == 1 else f"{len(primes)} primes ({in_words(primes)})"
        return (f"{who} completed ring {len(after.rings)} with {in_words([str(v) for v in ring])}: "
                f"{found}, {counted(points, 'point')}")

    def _list_words(self, index: int) -> tuple[str, str]:
        move = self.history[index]
        if index < self.rays:
            value, wedge = move.split("@")
            return "centre", f"{value} in wedge {wedge}"
        # which wedges took the sum and which the difference, in words (the
        # signs stay the notation of records and the command line)
        sums = [w for w, sign in enumerate(move, start=1) if sign == "+"]
        differences = [w for w, sign in enumerate(move, start=1) if sign == "-"]
        parts = [f"{kind} in {'every wedge' if len(wedges) == self.rays else _wedges(wedges)}"
                 for kind, wedges in (("sum", sums), ("difference", differences)) if wedges]
        return "ring", f"ring {index - self.rays + 1}: {'; '.join(parts)}"

    def _end_reason(self) -> str:
        return f"all {self.ring_total} rings round the centre are complete, so the highest total of ring points wins"

    def _board(self, seat: int | None) -> JSONObject:
        over = self.is_over
        choices = None
        inner = None
        if not over and not self.opening:
            inner_ring = self._inner()
            inner = list(inner_ring)
            choices = []
            for values in wedge_values(inner_ring):
                total, difference = values[0], values[-1]
                choices.append({
                    "sum": total,
                    "difference": difference,
                    "same": len(values) == 1,
                    "sum_prime": is_prime(total),
                    "difference_prime": is_prime(difference),
                })
        return {
            "rays": self.rays,
            "ring_count": self.ring_total + 1,
            "phase": "centre" if self.opening else "over" if over else "rings",
            "rings": [[v or None for v in self.centre]] + [list(r) for r in self.rings],
            "next_ring": None if over else 0 if self.opening else len(self.rings) + 1,
            "ring_scores": [
                {"ring": j + 1, "seat": j % self.players, "primes": [is_prime(v) for v in ring], "score": points}
                for j, (ring, points) in enumerate(zip(self.rings, self.ring_points))
            ],
            "free_values": free_values(self.centre) if self.opening else [],
            "free_wedges": free_wedges(self.centre) if self.opening else [],
            "inner": inner,
            "choices": choices,
            "legal_listed": self._listed(),
        }

    def text_board(self) -> str:
        lines = ["  centre: " + " ".join(str(v) if v else "." for v in self.centre)]
        for i, ring in enumerate(self.rings, start=1):
            lines.append(f"{f'ring {i}':>8}: " + " ".join(map(str, ring)))
        if not self.is_over and not self.opening:
            lines.append("choices per wedge (sum/difference): " + " ".join(
                "/".join(map(str, values)) for values in wedge_values(self._inner())))
        return "\n".join(lines)

    # -- record ----------------------------------------------------------

    def _encode_moves(self) -> str:
        # Centre moves: value and wedge as one base-36 digit each; ring moves: the
        # difference mask in two base-64 digits (wedge 1 is the lowest bit).
        parts = []
        for move in self.history:
            if "@" in move:
                value, wedge = move.split("@")
                parts.append(DIGITS36[int(value)] + DIGITS36[int(wedge)])
            else:
                mask = signs_mask(move)
                parts.append(DIGITS64[mask >> 6] + DIGITS64[mask & 63])
        return "".join(parts)

    @classmethod
    def _decode_moves(cls, text: str, options: Options) -> Iterator[tuple[str, int | None]]:
        rays = options["rays"]
        if len(text) % 2:
            raise InvalidRecord("the moves of this record should come in pairs of characters")
        for i in range(0, len(text), 2):
            pair = text[i : i + 2]
            if i < 2 * rays:
                value, wedge = DIGITS36.find(pair[0]), DIGITS36.find(pair[1])
                if not 1 <= value <= rays or not 1 <= wedge <= rays:
                    raise InvalidRecord(f"centre move {i // 2 + 1} of the record ({pair!r}) is damaged")
                yield f"{value}@{wedge}", None
            else:
                high, low = DIGITS64.find(pair[0]), DIGITS64.find(pair[1])
                if high < 0 or low < 0 or (high << 6 | low) >> rays:
                    raise InvalidRecord(f"ring move {(i - 2 * rays) // 2 + 1} of the record ({pair!r}) is damaged")
                yield ring_notation(high << 6 | low, rays), None


# -- the rules, each once (the state and the computer players use them) -------


def to_move(players: int, ring_total: int, placed: int, completed: int, opening: bool) -> tuple[int, ...]:
    """Who moves: the centre's numbers go round from Player 1, then the rings
    go round from Player 1 again; nobody once every ring is complete."""
    if opening:
        return (placed % players,)
    if completed < ring_total:
        return (completed % players,)
    return ()


def _wedges(numbers: list[int]) -> str:
    """"wedge 3", "wedges 1, 2 and 7", with runs of three or more as "3 to 6"."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    items = [item for run in runs for item in ([f"{run[0]} to {run[-1]}"] if len(run) > 2 else map(str, run))]
    return f"wedge{'s' if len(numbers) > 1 else ''} {in_words(items)}"


def wedge_values(inner: Sequence[int]) -> list[tuple[int] | tuple[int, int]]:
    """Per wedge of the next ring, what it may hold: (sum, difference) of the two
    numbers inside it (the wedge itself and its clockwise neighbour), or just
    (sum,) when one of them is 0 and the two agree."""
    clockwise = [*inner[1:], inner[0]]
    return [(a + b,) if not a or not b else (a + b, abs(a - b)) for a, b in zip(inner, clockwise)]


def next_ring(inner: Sequence[int], mask: int) -> tuple[int, ...]:
    """The ring written outside `inner` by the ring move `mask` (bit w set: the
    difference in wedge w + 1; a wedge whose sum and difference agree takes the sum)."""
    return tuple([values[-1] if mask >> w & 1 else values[0] for w, values in enumerate(wedge_values(inner))])


def same_mask(inner: Sequence[int]) -> int:
    """Bit w set when wedge w+1 of the next ring has sum = difference (a 0 inside)."""
    return sum(1 << w for w, values in enumerate(wedge_values(inner)) if len(values) == 1)


def signs_mask(signs: str) -> int:
    """A ring move's signs as a mask: bit w set for a '-' in wedge w + 1."""
    return sum(1 << w for w, sign in enumerate(signs) if sign == "-")


def ring_notation(mask: int, rays: int) -> str:
    """A ring move's notation: one sign per wedge, wedge 1 first."""
    return "".join("-" if mask >> w & 1 else "+" for w in range(rays))


def ring_score(ring: Sequence[int]) -> int:
    """What a completed ring scores (see `ring_points`)."""
    primes = [v for v in ring if is_prime(v)]
    return ring_points(len(primes), primes[0] if primes else 0)


def ring_points(primes: int, first_prime: int) -> int:
    """A ring with `primes` wedges holding a prime, the first of them
    `first_prime`, scores that count, or the prime itself when there is
    exactly one."""
    return first_prime if primes == 1 else primes


def free_values(centre: Sequence[int]) -> list[int]:
    """The numbers 1..rays not yet written in the centre (0: an empty wedge)."""
    used = set(centre)
    return [v for v in range(1, len(centre) + 1) if v not in used]


def free_wedges(centre: Sequence[int]) -> list[int]:
    """The empty wedges of the centre, numbered from 1."""
    return [w + 1 for w, v in enumerate(centre) if not v]


@lru_cache(maxsize=1024)
def _ring_moves(rays: int, same: int) -> tuple[str, ...]:
    """Every distinct ring move, in ASCII order; wedges in `same` only take '+'."""
    # itertools.product keeps the order of each wedge's choices, and '+' < '-'.
    options = [("+",) if same >> w & 1 else ("+", "-") for w in range(rays)]
    return tuple("".join(signs) for signs in itertools.product(*options))


PrimeTarget.state_class = PrimeTargetState
GAME = PrimeTarget()
