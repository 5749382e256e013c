"""Nonconformity, a game by Leroy Quet.

Two seats each grow a sequence of whole numbers from a start. Every round both
choose their next number in secret and reveal them together; a number must
share a prime factor with the seat's own previous term and may not repeat the
seat's own earlier terms. A revealed number scores a point when it lies
strictly between the smallest and largest of the opponent's earlier terms
without being one of them.

Notation: a pick is the number in plain decimal digits, such as ``12`` (no
sign, no leading zeros, no spaces). `legal_moves(seat)` lists every legal pick
of that seat from 2 to ``max_pick`` in increasing numeric order.

Turn order: while both seats can pick, a round starts with ``to_move == (0, 1)``;
a play needs its seat, and once one seat has chosen only the other is to move.
A seat with no legal pick sits the round out automatically (it is never to
move), and the other seat's pick is then revealed at once. `history` holds the
revealed rounds, Player 1's pick then Player 2's, ``-`` for a seat that sat
out; a chosen but unrevealed pick is not in `history` but is kept in `record`
(`view(seat)` shows it only to the seat that chose it).

`view(seat)["board"]` keys:

- ``round``: the round being chosen now (1-based), or None once the game is over;
  ``rounds``: how many rounds the game has (length − 1); ``played``: rounds revealed.
- ``max_pick``: the largest number allowed (the smallest is always 2).
- ``sequences``: per seat, its revealed terms, start first.
- ``term_rounds``: per seat, the round of each term (0 for the start).
- ``scored``: per seat, for each term whether it scored (starts never do).
- ``round_log``: one entry per revealed round: ``{"round", "picks", "scored"}``,
  picks per seat (None for a seat that sat out), scored per seat.
- ``scoring_picks``: per seat, its legal picks that would score this round
  (listed only while ``legal_listed``; else empty).
- ``bands``: per seat, what its next pick must lie strictly inside to score:
  ``{"low", "high", "excluded"}`` (excluded: the opponent's terms strictly
  between low and high, which never score).
- ``last``: per seat, its last revealed term; ``factors``: that term's primes
  (a legal pick is a multiple of one of them that is not in the seat's sequence).
- ``legal_count``: per seat, how many legal picks it has now (0: it sits out).
- ``sat_out``: per seat, True when it has no legal pick and sits out the
  remaining rounds.
- ``picked``: per seat, True when it has chosen this round (value hidden); the
  view's generic ``choosing`` says the same for every game (see base.py).
- ``pending``: per seat, the chosen but unrevealed pick, shown only to the seat
  that chose it (None otherwise).
- ``legal_listed``: True when the view's ``legal_moves`` holds the full list
  (``max_pick`` up to 2000); above that it is empty and a front end should use
  ``factors``, ``sequences`` and ``legal_count`` instead.

Record moves: the history tokens joined by ``_`` (two a round, ``-`` for a
seat that sat out), followed by a pending pick if there is one: ``N`` for
Player 1's, ``-_N`` for Player 2's. Example: ``4_2_8_6_10``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Collection, Iterator, Sequence
from functools import lru_cache
from itertools import compress
from math import prod
from typing import Any

from ..base import Game, State
from ..errors import IllegalMove, InvalidOptions, InvalidRecord
from ..numbers import coprime, prime_factors
from ..options import BoolOption, IntOption, PairOption

MIN_PICK = 2
MAX_MAX_PICK = 1_000_000
DRAW_LOW, DRAW_HIGH = 2, 30  # the range random starts are drawn from
SEED_MAX = 2**31 - 1
LIST_IN_VIEW = 2000  # up to this max_pick the view carries the full legal list
SAT_OUT = "-"
NAME_TABLE_LIMIT = 20_000  # up to this max_pick, legal lists reuse one table of spelled numbers

_DIGITS = re.compile(r"[0-9]+")
_TOKEN = re.compile(r"-|[1-9][0-9]{0,6}")


class Nonconformity(Game):
    id = "nonconformity"
    code = "nc"
    name = "Nonconformity"
    summary = (
        "Two players grow number sequences side by side, choosing each new number in secret "
        "and revealing both at once. Each new number must share a prime factor with your "
        "previous one and never repeat your own numbers. You score when your number lands "
        "strictly inside the range of your opponent's earlier numbers without matching any "
        "of them; the higher score after the last round wins."
    )
    rules = """\
**Players and starts.** Two players each own a sequence of whole numbers. Each sequence
begins with a start: either both starts are set when the game is created, or they are
drawn at random from 2 to 30 (optionally one draw shared by both players). The game has
a fixed length: each sequence may reach that many terms, start included, so there are
length − 1 rounds.

**A round.** Both players choose their next number in secret, without seeing the other's
choice; then both numbers are revealed together and added to their sequences. Your number
must:

- be from 2 to the largest number allowed (max_pick, 1000 unless set otherwise);
- have a prime factor in common with your own previous term (after 10, any even number or
  any multiple of 5 will do);
- not be one of your own earlier terms. It may equal one of your opponent's.

**Scoring.** When a round is revealed, your new number earns a point if it is larger than
the smallest and smaller than the largest of your opponent's terms from before this round
(their start included), and is not equal to any of those terms. Your opponent's number
from the same round does not count, and starts never score.

**Sitting out.** If no number is open to you (every multiple of every prime of your last
term, up to max_pick, is already in your sequence; this can even happen to a start, such
as a prime above half of max_pick), you sit out: you get no term that round, and since
your last term stays the same, you sit out every later round too. Your opponent keeps
playing, and their number is revealed as soon as they choose it. If neither player can
choose, the game ends early.

**End.** After the last round (or when neither player can move) the higher score wins;
equal scores share the win.

**Example.** Starts 6 and 4, eight terms each. Player 1 plays 4, 8, 10, 12, 14, 7, 21 and
Player 2 plays 2, 6, 3, 9, 12, 14, 7. In round 4 Player 2's 9 (sharing the prime 3 with the
3 before it) lies between 4 and 10, the extremes of Player 1's 6, 4, 8, 10, and is none of
them: one point. In round 6 Player 1's 7 lies between 2 and 12 and is not among Player 2's
4, 2, 6, 3, 9, 12: one point. Player 2's 7 in round 7 also lies inside, but Player 1
already has a 7, so it scores nothing. The game ends 1 to 1, a shared win.
"""
    options = (
        IntOption("length", "l", 10, "terms in each sequence, the start included", lo=2, hi=100),
        IntOption("max_pick", "m", 1000, "the largest number a player may pick", lo=100, hi=MAX_MAX_PICK),
        PairOption(
            "starts", "s", None,
            "the two starting numbers, each from 2 to max_pick; leave unset to draw them at random",
            lo=MIN_PICK, hi=MAX_MAX_PICK,
        ),
        BoolOption("same_start", "e", False, "when the starts are drawn: one draw for both players"),
        IntOption("seed", "r", 0, "when the starts are drawn: the seed of the draw (the same seed draws the same starts)", lo=0, hi=SEED_MAX),
    )

    def _finish_options(self, values: dict[str, Any]) -> dict[str, Any]:
        starts = values["starts"]
        top = values["max_pick"]
        if starts is None:
            rng = random.Random(values["seed"])
            first = rng.randint(DRAW_LOW, DRAW_HIGH)
            starts = (first, first if values["same_start"] else rng.randint(DRAW_LOW, DRAW_HIGH))
        else:
            for value in starts:
                if value > top:
                    raise InvalidOptions(f"each of starts must be at most max_pick ({top}); {value} is larger")
        # Only what the game depends on is kept (and so written in the record).
        return {"length": values["length"], "max_pick": top, "starts": tuple(starts)}


class NonconformityState(State):
    __slots__ = ("seqs", "owned", "term_rounds", "scored", "points", "spans", "factors", "stuck", "pending", "played")

    seqs: tuple[tuple[int, ...], tuple[int, ...]]  # revealed terms per seat, start first
    owned: tuple[frozenset[int], frozenset[int]]  # the same terms as sets
    term_rounds: tuple[tuple[int, ...], tuple[int, ...]]  # the round of each term (0: start)
    scored: tuple[tuple[bool, ...], tuple[bool, ...]]  # whether each term scored
    points: tuple[int, int]
    spans: tuple[tuple[int, int], tuple[int, int]]  # (min, max) of each seat's terms
    factors: tuple[tuple[int, ...], tuple[int, ...]]  # primes of each seat's last term
    stuck: tuple[bool, bool]  # no legal pick left: sits out for good
    pending: tuple[int | None, int | None]  # chosen, not yet revealed
    played: int  # rounds revealed

    @classmethod
    def initial(cls, game: Game, options: dict[str, Any]) -> NonconformityState:
        state = cls._blank(game, options)
        starts = options["starts"]
        state.seqs = ((starts[0],), (starts[1],))
        state.owned = (frozenset(state.seqs[0]), frozenset(state.seqs[1]))
        state.term_rounds = ((0,), (0,))
        state.scored = ((False,), (False,))
        state.points = (0, 0)
        state.spans = ((starts[0], starts[0]), (starts[1], starts[1]))
        state.factors = (prime_factors(starts[0]), prime_factors(starts[1]))
        state.stuck = (state._no_pick(0), state._no_pick(1))
        state.pending = (None, None)
        state.played = 0
        return state

    @property
    def rounds(self) -> int:
        return int(self.options["length"]) - 1

    @property
    def max_pick(self) -> int:
        return int(self.options["max_pick"])

    # -- turn order ------------------------------------------------------

    def _to_move(self) -> tuple[int, ...]:
        if self.played >= self.rounds:
            return ()
        stuck, pending = self.stuck, self.pending
        first = not stuck[0] and pending[0] is None
        second = not stuck[1] and pending[1] is None
        return (0, 1) if first and second else (0,) if first else (1,) if second else ()

    # -- moves -----------------------------------------------------------

    def _no_pick(self, seat: int) -> bool:
        return no_pick(self.factors[seat], self.owned[seat], self.max_pick)

    def _marks(self, seat: int) -> bytearray:
        """Byte i is 1 when i is a legal pick for the seat: multiples marked with
        slice assignments, so even max_pick = 10**6 takes a few C-speed passes."""
        top = self.max_pick
        mark = bytearray(top + 1)
        for p in self.factors[seat]:
            if p <= top:
                mark[p::p] = b"\x01" * (top // p)
        for t in self.owned[seat]:
            mark[t] = 0  # every term is at most max_pick
        return mark

    def _legal(self, seat: int) -> list[str]:
        top = self.max_pick
        if top <= NAME_TABLE_LIMIT:
            return list(compress(_names(top), self._marks(seat)))
        return list(map(str, compress(range(top + 1), self._marks(seat))))

    def legal_count(self, seat: int) -> int:
        """How many legal picks the seat has now, by inclusion and exclusion over
        the primes of its last term (0 when it sits out)."""
        if self.stuck[seat]:
            return 0
        primes, top = self.factors[seat], self.max_pick
        multiples = 0
        for mask in range(1, 1 << len(primes)):
            chosen = [p for i, p in enumerate(primes) if mask >> i & 1]
            multiples += (-1) ** (len(chosen) + 1) * (top // prod(chosen))
        last = self.seqs[seat][-1]
        return multiples - sum(1 for t in self.owned[seat] if not coprime(t, last))

    def _parse(self, move: str, seat: int) -> int:
        top = self.max_pick
        if not _DIGITS.fullmatch(move):
            raise IllegalMove(f"{move!r:.30} is not a pick: write a whole number in plain digits, like 12")
        if len(move) > 1 and move[0] == "0":
            raise IllegalMove(f"write {move[:30]} without leading zeros (as {move.lstrip('0')[:30] or '0'})")
        if len(move) > len(str(top)):
            raise IllegalMove(f"{move[:30]}{'…' if len(move) > 30 else ''} is too large: picks run from {MIN_PICK} to {top}")
        number = int(move)
        if number < MIN_PICK:
            raise IllegalMove(f"{number} is too small: picks run from {MIN_PICK} to {top}")
        if number > top:
            raise IllegalMove(f"{number} is too large: picks run from {MIN_PICK} to {top}")
        name = self.seat_name(seat)
        if number in self.owned[seat]:
            where = self.seqs[seat].index(number) + 1
            raise IllegalMove(f"{number} is already term {where} of {name}'s sequence; a sequence never repeats a number")
        last = self.seqs[seat][-1]
        if coprime(number, last):
            primes = " and ".join(str(p) for p in self.factors[seat])
            raise IllegalMove(
                f"{number} shares no prime factor with {last}, {name}'s last term "
                f"(a pick must be a multiple of {primes})"
            )
        return number

    def _apply(self, move: str, seat: int) -> NonconformityState:
        number = self._parse(move, seat)
        other = 1 - seat
        new = self._copy()
        if not self.stuck[other] and self.pending[other] is None:
            # The other seat still has to choose: keep this pick secret for now.
            new.pending = (number, None) if seat == 0 else (None, number)
            return new
        picks = [self.pending[0], self.pending[1]]
        picks[seat] = number
        new._reveal(picks)
        return new

    def preview(self, move: str, seat: int | None = None) -> dict[str, Any]:
        """Whether `move` would score for `seat` once revealed, without playing it:
        ``{"pick": int, "scores": bool, "low": int, "high": int}``; raises
        IllegalMove when the pick is not legal (the same checks `play` makes).
        It needs nothing secret: a pick scores against the opponent's earlier
        terms only."""
        if not isinstance(move, str):
            raise IllegalMove(f"a move is written as text, not {type(move).__name__}")
        if self.is_over:
            raise IllegalMove("the game is over: no more moves can be played")
        seat = self._seat(seat)
        number = self._parse(move[:200], seat)
        low, high = self.spans[1 - seat]
        return {"pick": number, "scores": scores_against(number, self.spans[1 - seat], self.owned[1 - seat]), "low": low, "high": high}

    def _reveal(self, picks: list[int | None]) -> None:
        """Add a round's picks (None: sat out) to this fresh copy, scoring each
        against the opponent's terms from before the round."""
        rnd = self.played + 1
        seqs, owned, rounds, scored, points, spans, factors, stuck = (
            list(self.seqs), list(self.owned), list(self.term_rounds), list(self.scored),
            list(self.points), list(self.spans), list(self.factors), list(self.stuck),
        )
        gained = [pick is not None and scores_against(pick, self.spans[1 - s], self.owned[1 - s]) for s, pick in enumerate(picks)]
        for s, pick in enumerate(picks):
            if pick is None:
                continue
            seqs[s] += (pick,)
            owned[s] = owned[s] | {pick}
            rounds[s] += (rnd,)
            scored[s] += (gained[s],)
            points[s] += gained[s]
            spans[s] = widened(spans[s], pick)
            factors[s] = prime_factors(pick)
        self.seqs, self.owned, self.term_rounds, self.scored = tuple(seqs), tuple(owned), tuple(rounds), tuple(scored)  # type: ignore[assignment]
        self.points, self.spans, self.factors = tuple(points), tuple(spans), tuple(factors)  # type: ignore[assignment]
        for s, pick in enumerate(picks):
            if pick is not None:
                stuck[s] = self._no_pick(s)
        self.stuck = tuple(stuck)  # type: ignore[assignment]
        self.pending = (None, None)
        self.played = rnd
        self.history = self.history + tuple(SAT_OUT if p is None else str(p) for p in picks)

    # -- scoring ---------------------------------------------------------

    def _scores(self) -> tuple[int, ...]:
        return self.points

    # -- secrets ---------------------------------------------------------

    def _secret_free(self, seat: int | None) -> NonconformityState:
        hidden = tuple(p if s == seat else None for s, p in enumerate(self.pending))
        if hidden == self.pending:
            return self
        new = self._copy()
        new.pending = hidden  # type: ignore[assignment]
        return new

    def _choosing(self) -> tuple[tuple[int, ...], tuple[int, ...], bool] | None:
        # A round is a joint secret move while both seats can pick; a seat that
        # sits out leaves the other's pick to be revealed at once.
        if self.is_over or any(self.stuck):
            return None
        chosen = tuple(s for s in (0, 1) if self.pending[s] is not None)
        return chosen, self.to_move, True

    def _legal_for_view(self, seat: int | None) -> list[str]:
        if seat is None or self.is_over or self.max_pick > LIST_IN_VIEW:
            return []
        return self._legal(seat)

    # -- presentation ----------------------------------------------------

    def _status(self) -> str:
        if self.is_over:
            winners = self.winners
            a, b = self.points
            early = " (neither player can pick any more)" if self.played < self.rounds else ""
            if len(winners) == 1:
                return f"Game over{early}: {self.seat_name(winners[0])} wins {max(a, b)} to {min(a, b)}"
            return f"Game over{early}: {self.seat_name(0)} and {self.seat_name(1)} share the win with {a} each"
        head = f"Round {self.played + 1} of {self.rounds}: "
        to_move = self.to_move
        if len(to_move) == 2:
            return head + f"{self.seat_name(0)} and {self.seat_name(1)} each choose a number in secret"
        chooser, other = to_move[0], 1 - to_move[0]
        if self.stuck[other]:
            note = f"{self.seat_name(other)} has no legal pick and sits out"
        else:
            note = f"{self.seat_name(other)} has chosen"
        return head + f"{note}; {self.seat_name(chooser)} to choose a number"

    def _board(self, seat: int | None) -> dict[str, Any]:
        over = self.is_over
        bands = []
        for s in (0, 1):
            low, high = self.spans[1 - s]
            bands.append({"low": low, "high": high, "excluded": sorted(t for t in self.owned[1 - s] if low < t < high)})
        log = []
        index = [1, 1]  # next term position per seat
        for r in range(self.played):
            picks: list[int | None] = []
            gained: list[bool] = []
            for s in (0, 1):
                i = index[s]
                if i < len(self.seqs[s]) and self.term_rounds[s][i] == r + 1:
                    picks.append(self.seqs[s][i])
                    gained.append(self.scored[s][i])
                    index[s] += 1
                else:
                    picks.append(None)
                    gained.append(False)
            log.append({"round": r + 1, "picks": picks, "scored": gained})
        return {
            "round": None if over else self.played + 1,
            "rounds": self.rounds,
            "played": self.played,
            "max_pick": self.max_pick,
            "sequences": [list(q) for q in self.seqs],
            "term_rounds": [list(q) for q in self.term_rounds],
            "scored": [list(q) for q in self.scored],
            "round_log": log,
            "bands": bands,
            "last": [q[-1] for q in self.seqs],
            "factors": [list(f) for f in self.factors],
            "legal_count": [0 if over else self.legal_count(s) for s in (0, 1)],
            "sat_out": list(self.stuck),
            "picked": [p is not None for p in self.pending],
            "pending": [p if s == seat else None for s, p in enumerate(self.pending)],
            "legal_listed": not over and self.max_pick <= LIST_IN_VIEW,
            "scoring_picks": [self._scoring_picks(s) if not over and self.max_pick <= LIST_IN_VIEW else [] for s in (0, 1)],
        }

    def text_board(self) -> str:
        lines = []
        for s in (0, 1):
            marks = [f"{v}*" if scored else str(v) for v, scored in zip(self.seqs[s], self.scored[s])]
            lines.append(f"{self.seat_name(s)}: " + " ".join(marks))
            low, high = self.spans[1 - s]
            excluded = sorted(t for t in self.owned[1 - s] if low < t < high)
            lines.append(f"   scores with a pick strictly between {low} and {high}"
                         + (f", except {', '.join(map(str, excluded))}" if excluded else "")
                         + f"; must share a prime with {self.seqs[s][-1]} ({', '.join(map(str, self.factors[s]))})")
        lines.append("(* scored)")
        return "\n".join(lines)

    def _scoring_picks(self, seat: int) -> list[int]:
        """The legal picks of `seat` that would score this round (public: a
        pick scores against the opponent's earlier terms only)."""
        if self.stuck[seat]:
            return []
        span, theirs = self.spans[1 - seat], self.owned[1 - seat]
        return [int(m) for m in self._legal(seat) if scores_against(int(m), span, theirs)]

    # -- record ----------------------------------------------------------

    def _encode_moves(self) -> str:
        tokens = list(self.history)
        if self.pending[0] is not None:
            tokens.append(str(self.pending[0]))
        elif self.pending[1] is not None:
            tokens += [SAT_OUT, str(self.pending[1])]
        return "_".join(tokens)

    @classmethod
    def _decode_moves(cls, text: str, options: dict[str, Any]) -> Iterator[tuple[str, int | None]]:
        tokens = text.split("_") if text else []
        if not all(_TOKEN.fullmatch(t) for t in tokens):
            raise InvalidRecord("the moves of this record should be numbers or '-', joined by '_'")
        # Tokens alternate Player 1, Player 2; the replay itself tells a revealed
        # round from a pending pick, and the re-encoding check catches the rest.
        return ((t, i % 2) for i, t in enumerate(tokens) if t != SAT_OUT)


# -- the rules, each once (the state and the computer players use them) -------


def legal_pick(pick: int, last: int, owned: Collection[int], top: int) -> bool:
    """A pick is legal when it is from 2 to max_pick, shares a prime factor with
    the seat's last term and is not one of the seat's own terms."""
    return MIN_PICK <= pick <= top and pick not in owned and not coprime(pick, last)


def scores_against(pick: int, span: tuple[int, int], theirs: Collection[int]) -> bool:
    """A revealed pick scores when it lies strictly between the smallest and
    largest of the opponent's earlier terms (`span`) and is none of them."""
    low, high = span
    return low < pick < high and pick not in theirs


def widened(span: tuple[int, int], pick: int) -> tuple[int, int]:
    """A sequence's (smallest, largest) term once `pick` joins it."""
    return (min(span[0], pick), max(span[1], pick))


def no_pick(factors: Sequence[int], owned: Collection[int], top: int) -> bool:
    """True when every multiple (up to max_pick) of every prime of the seat's
    last term is already in its sequence: the seat sits out for good."""
    for p in factors:
        # A sequence has at most 100 terms, so only a prime with few multiples can be used up.
        if top // p > len(owned) or any(m not in owned for m in range(p, top + 1, p)):
            return False
    return True


@lru_cache(maxsize=4)
def _names(top: int) -> tuple[str, ...]:
    """Every number from 0 to top spelled out, so legal lists need no str() calls."""
    return tuple(map(str, range(top + 1)))


Nonconformity.state_class = NonconformityState
GAME = Nonconformity()
