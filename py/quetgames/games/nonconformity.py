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

Sealed picks (play by link, where nobody holds both secrets): the first pick
of a round may be sealed instead, while the other seat still has to choose.

- ``c<64 hex>`` seals a pick: the hex is `commitment(salt, pick)`, SHA-256 of
  salt + ":" + pick. The engine never learns the pick until the reveal
  (`State.seal(pick, salt, seat)` checks the pick and plays this move).
- The other seat then picks in the open (a plain pick, public at once).
- ``<pick>~<salt>`` reveals it, such as ``12~k3J9qT0aZx81LmPw``; the salt is
  16 to 24 letters (A-Z, a-z) and digits. It must match the commitment.
- ``f`` forfeits it: the sealer gets no number that round (as when sitting
  out) and the opponent scores one point for the forfeit.

While a seal is open, ``to_move`` is the other seat until it has picked, then
the sealer, whose `legal_moves` is just ``["f"]`` (a reveal needs the salt);
any other pick of the sealer is refused, naming the round and the seat.

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
  that chose it (None otherwise); an open pick made against a sealed pick is
  public and shown to everyone.
- ``sealed``: per seat, True while its pick of this round is sealed and not yet
  revealed (its value is not known to anyone but the sealer, not even here).
- ``seals``: every sealed pick of the game, ``{"round", "seat", "commitment",
  "revealed", "forfeited"}`` (commitment: 64 hex digits); never a salt.
- ``forfeits``: per seat, how many sealed picks it forfeited (each gave the
  opponent a point, counted in the scores).
- ``legal_listed``: True when the view's ``legal_moves`` holds the full list
  (``max_pick`` up to 2000); above that it is empty and a front end should use
  ``factors``, ``sequences`` and ``legal_count`` instead.

Record moves: the history tokens joined by ``_`` (two a round, ``-`` for a
seat that sat out), followed by a pending pick if there is one: ``N`` for
Player 1's, ``-_N`` for Player 2's. Example: ``4_2_8_6_10``. In a sealed round
the sealer's token is the seal, followed once the round is over by ``~`` and
the reveal, or by ``~f``: ``c<hex>~12~<salt>_8`` (Player 1 sealed 12, Player 2
picked 8 in the open), ``c<hex>~f_8`` (forfeited); while it is open, ``c<hex>``
or ``c<hex>_8`` for Player 1's seal, ``-_c<hex>`` or ``8_c<hex>`` for Player
2's. The record keeps every seal with its reveal, so `load` checks each one
again; and the moves a record stands for only ever grow (the reveal is written
into its seal's token, yet replays after the open pick), so
``replay(later, plies of earlier)`` rebuilds the earlier game exactly when the
later record continues it. A default game with every round sealed stays under
1,000 characters.
"""

from __future__ import annotations

import random
import re
import secrets
from collections.abc import Collection, Iterator, Sequence
from functools import lru_cache
from itertools import compress
from math import prod

from ..base import Example, Game, State, in_words
from ..errors import IllegalMove, InvalidOptions, InvalidRecord
from ..numbers import coprime, prime_factors
from ..options import BoolOption, IntOption, PairOption
from ..sealing import FORFEIT, SALT_MAX, SALT_MIN, Seal, SealedState, commitment, is_sealing_move, seal_move
from ..data import JSONObject, Options

__all__ = ["GAME", "Nonconformity", "NonconformityState", "Seal", "FORFEIT", "SALT_MIN", "SALT_MAX", "commitment",
           "seal_move", "legal_pick", "scores_against", "widened", "no_pick", "MIN_PICK"]

MIN_PICK = 2
MAX_MAX_PICK = 1_000_000
DRAW_LOW, DRAW_HIGH = 2, 30  # the range random starts are drawn from
SEED_MAX = 2**31 - 1
LIST_IN_VIEW = 2000  # up to this max_pick the view carries the full legal list
SAT_OUT = "-"
NAME_TABLE_LIMIT = 20_000  # up to this max_pick, legal lists reuse one table of spelled numbers

_DIGITS = re.compile(r"[0-9]+")
_TOKEN = re.compile(r"-|[1-9][0-9]{0,6}")
_PICK = r"[1-9][0-9]{0,6}"


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
begins with a start: either both starts are set before the game, or they are drawn
at random from 2 to 30 (optionally one draw shared by both players). The game has a
fixed length, chosen before it starts (10 unless chosen otherwise): each sequence may
reach that many terms, start included, so a game of length 10 has 9 rounds.

**A round.** Both players choose their next number in secret, without seeing the other's
choice; then both numbers are revealed together and added to their sequences. Your number
must:

- be from 2 to the largest number a player may pick, which is chosen before the game
  (100 to 1,000,000; 1000 unless chosen otherwise);
- have a prime factor in common with your own previous term (if that term was 10, for example,
  any even number or any multiple of 5 will do);
- not be one of your own earlier terms. It may equal one of your opponent's.

**Scoring.** When a round is revealed, your new number earns a point if it is larger than
the smallest and smaller than the largest of your opponent's terms from before this round
(their start included), and is not equal to any of those terms. Your opponent's number
from the same round does not count, and starts never score.

**Sitting out.** If no number is open to you (every multiple of every prime of your last
term, up to the largest number allowed, is already in your sequence; this can even
happen to a start, such as a prime above half of that largest number), you sit out: you
get no term that round, and since your last term stays the same, you sit out every later
round too. Your opponent keeps
playing, and their number is revealed as soon as they choose it. If neither player can
choose, the game ends early.

**Playing by link: sealed picks.** When the players are not at the same screen, the
first to choose in a round may seal the number: the game records only a fingerprint of
it (SHA-256 of a long random salt and the number), which shows nothing of the number but
fits no other. The other player then chooses in the open, and the first player reveals
the number with its salt; the game checks it against the seal and refuses any other
number. A sealed number can only be revealed or forfeited, never replaced. Whoever
cannot or will not reveal it (say the salt was lost) forfeits it: they get no number that
round (their last number stays their last, as when sitting out) and their opponent
scores one point for the forfeit, besides what their own number scores. So backing out
of a sealed number always costs a point, and it can never be swapped for another.

**End.** After the last round (or when neither player can move) the higher score wins;
equal scores share the win.

**Example.** Starts 6 and 4, eight terms each (the finished game below). Player 1
plays 4, 8, 10, 12, 14, 7, 21 and Player 2 plays 2, 6, 3, 9, 12, 14, 7. In round 4 Player 2's 9 (sharing the prime 3 with the
3 before it) lies between 4 and 10, the extremes of Player 1's 6, 4, 8, 10, and is none of
them: one point. In round 6 Player 1's 7 lies between 2 and 12 and is not among Player 2's
4, 2, 6, 3, 9, 12: one point. Player 2's 7 in round 7 also lies inside, but Player 1
already has a 7, so it scores nothing. The game ends 1 to 1, a shared win.
"""
    examples = (
        Example("q1.nc.l8_m1000_s6x4.4_2_8_6_10_3_12_9_14_12_7_14_21_7", "The finished example game: one point each (starred), a shared win."),
    )
    options = (
        IntOption("length", "l", 10, "terms in each sequence, the start included", lo=2, hi=100, short="terms"),
        IntOption("max_pick", "m", 1000, "the largest number a player may pick", lo=100, hi=MAX_MAX_PICK, short="largest pick"),
        PairOption(
            "starts", "s", None,
            "the two starting numbers, each from 2 to the largest pick; leave unset to draw them at random",
            lo=MIN_PICK, hi=MAX_MAX_PICK, at_most="max_pick", unset=f"both drawn at random from {DRAW_LOW} to {DRAW_HIGH}",
        ),
        BoolOption("same_start", "e", False, "when the starts are drawn: one draw for both players", short="one draw for both starts"),
        IntOption(
            "seed", "r", None,
            "when the starts are drawn: the seed of the draw (the same seed draws the same starts); leave unset for a fresh draw",
            lo=0, hi=SEED_MAX, unset="a fresh draw every game",
        ),
    )
    # the settings docs/BALANCE.md measures (balance.py)
    balance_settings = (
        *({"length": n, "max_pick": m} for n, m in ((5, 100), (10, 100), (5, 1000), (10, 1000), (20, 1000), (10, 10000))),
        {"length": 10, "same_start": True},
    )
    # the settings puzzles.py looks for puzzles in: the last two rounds are
    # proved; small numbers make narrow bands, where few picks win
    puzzle_settings = ({}, {"max_pick": 100}, {"max_pick": 100, "length": 5})
    puzzle_share = 1 / 3

    def _finish_options(self, values: Options) -> Options:
        starts = values["starts"]
        top = values["max_pick"]
        if starts is None:
            # An unset seed is drawn from the system's secure source (never the
            # shared `random` module); the draw itself is always a seeded generator.
            # The record keeps the starts drawn, not the seed, so it replays exactly.
            seed = values["seed"]
            rng = random.Random(secrets.randbelow(SEED_MAX + 1) if seed is None else seed)
            first = rng.randint(DRAW_LOW, DRAW_HIGH)
            starts = (first, first if values["same_start"] else rng.randint(DRAW_LOW, DRAW_HIGH))
        else:
            for value in starts:
                if value > top:
                    raise InvalidOptions(f"each of starts must be at most max_pick ({top}); {value} is larger")
        # Only what the game depends on is kept (and so written in the record).
        return {"length": values["length"], "max_pick": top, "starts": tuple(starts)}


class NonconformityState(SealedState):
    """Sealed picks (play by link) are the engine's sealed moves (sealing.py):
    this class says what a round is, who may seal and how a round ends."""

    __slots__ = ("seqs", "owned", "term_rounds", "scored", "points", "spans", "factors", "stuck", "pending", "played")

    sealed_move = _PICK
    sealed_noun = "pick"

    seqs: tuple[tuple[int, ...], tuple[int, ...]]  # revealed terms per seat, start first
    owned: tuple[frozenset[int], frozenset[int]]  # the same terms as sets
    term_rounds: tuple[tuple[int, ...], tuple[int, ...]]  # the round of each term (0: start)
    scored: tuple[tuple[bool, ...], tuple[bool, ...]]  # whether each term scored
    points: tuple[int, int]
    spans: tuple[tuple[int, int], tuple[int, int]]  # (min, max) of each seat's terms
    factors: tuple[tuple[int, ...], tuple[int, ...]]  # primes of each seat's last term
    stuck: tuple[bool, bool]  # no legal pick left: sits out for good
    pending: tuple[int | None, int | None]  # chosen, not yet revealed (public when the other seat sealed)
    played: int  # rounds revealed

    @classmethod
    def initial(cls, game: Game, options: Options) -> NonconformityState:
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
        state.seals = ()
        return state

    @property
    def rounds(self) -> int:
        return int(self.options["length"]) - 1

    @property
    def max_pick(self) -> int:
        return int(self.options["max_pick"])

    @property
    def open_seal(self) -> Seal | None:
        """This round's sealed pick while it waits for its reveal (or forfeit)."""
        seals = self.open_seals()
        return seals[0] if seals else None

    # -- turn order ------------------------------------------------------

    def _to_move(self) -> tuple[int, ...]:
        if self.played >= self.rounds:
            return ()
        seal = self.open_seal
        if seal is not None:
            # The other seat picks in the open, then the sealer reveals (or forfeits).
            other = 1 - seal.seat
            return (seal.seat,) if self.pending[other] is not None else (other,)
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

    def _plain_legal(self, seat: int) -> list[str]:
        return self._picks(seat)

    def _picks(self, seat: int) -> list[str]:
        """Every legal pick of the seat, in increasing order."""
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
            primes = _any_of([str(p) for p in self.factors[seat]])
            raise IllegalMove(
                f"{number} shares no prime factor with {last}, {name}'s last term "
                f"(a pick must be a multiple of {primes})"
            )
        return number

    def _apply_plain(self, move: str, seat: int) -> NonconformityState:
        seal = self.open_seal
        number = self._parse(move, seat)
        other = 1 - seat
        new = self._copy()
        if seal is not None or not self.stuck[other] and self.pending[other] is None:
            # The other seat still has to choose (keep this pick secret for now),
            # or it sealed its pick (this one is open and waits for the reveal).
            new.pending = (number, None) if seat == 0 else (None, number)
            return new
        picks = [self.pending[0], self.pending[1]]
        picks[seat] = number
        new._reveal(picks)
        return new

    def _forfeit_words(self, seat: int) -> str:
        return f"{self.seat_name(1 - seat)} scores one point for it, and {self.seat_name(seat)} gets no number this round"

    # -- sealed picks (the protocol is sealing.py's) -------------------------

    def _round(self) -> int:
        return self.played + 1

    def _check_may_seal(self, seat: int) -> None:
        rnd, other = self.played + 1, 1 - seat
        if self.stuck[other]:
            raise IllegalMove(f"round {rnd}: {self.seat_name(other)} sits out, so {self.seat_name(seat)}'s pick is revealed at once: there is nothing to seal")
        if self.pending[other] is not None or self.open_seal is not None:
            raise IllegalMove(f"round {rnd}: {self.seat_name(other)} has already chosen; only the first pick of a round can be sealed")

    def _check_sealed(self, move: str, seat: int) -> None:
        self._parse(move, seat)

    def _resolve_seal(self, seal: Seal, move: str | None) -> None:
        picks: list[int | None] = [None, None]
        picks[1 - seal.seat] = self.pending[1 - seal.seat]
        if move is None:
            self._reveal(picks, forfeit=seal.seat)
        else:
            picks[seal.seat] = int(move)
            self._reveal(picks)

    def preview(self, move: str, seat: int | None = None) -> JSONObject:
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

    def _reveal(self, picks: list[int | None], forfeit: int | None = None) -> None:
        """Add a round's picks (None: sat out) to this fresh copy, scoring each
        against the opponent's terms from before the round; `forfeit`: the seat
        that gave up its sealed pick (its opponent scores a point for it)."""
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
        if forfeit is not None:
            points[1 - forfeit] += 1
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
        if self.open_seal is not None:
            return self  # the engine never holds a sealed pick, and the open pick is public
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
        seal = self.open_seal
        chosen = tuple(s for s in (0, 1) if self.pending[s] is not None or seal is not None and seal.seat == s)
        return chosen, tuple(s for s in (0, 1) if s not in chosen), True

    def _turn_words(self) -> str:
        return f"round {self.played + 1}"

    def _move_words(self, move: str, seat: int) -> str:
        name = self.seat_name(seat)
        if is_sealing_move(move):
            return super()._move_words(move, seat)
        if move == SAT_OUT:
            return f"{name} sat out"
        return f"{name} picked {move}"

    def _legal_for_view(self, seat: int | None) -> list[str]:
        if seat is None or self.is_over or self.max_pick > LIST_IN_VIEW:
            return []
        return self._legal(seat)

    # -- presentation ----------------------------------------------------

    def _movers_of(self, seat: int, start: int, count: int) -> tuple[int, ...]:
        # a reveal adds the round's two picks at once, Player 1's then Player 2's
        return tuple(i % 2 for i in range(start, start + count))

    def _list_words(self, index: int) -> tuple[str, str]:
        token = self.history[index]
        rnd = index // 2 + 1
        return "pick", f"sat out round {rnd}" if token == SAT_OUT else f"{token} in round {rnd}"

    def _end_reason(self) -> str:
        forfeits = [f for f in self.seals if f.forfeited]
        given = f"; {len(forfeits)} sealed pick{'s' if len(forfeits) != 1 else ''} given up" if forfeits else ""
        if self.played < self.rounds:
            return f"after round {self.played} of {self.rounds} neither player has a legal pick left{given}"
        return f"all {self.rounds} rounds are played, so the higher total of points wins{given}"

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
        seal = self.open_seal
        if seal is not None:
            sealer, opener = self.seat_name(seal.seat), self.seat_name(1 - seal.seat)
            if to_move == (seal.seat,):
                return head + f"{sealer} has sealed a pick and {opener} has chosen {self.pending[1 - seal.seat]}; {sealer} to reveal the sealed pick"
            return head + f"{sealer} has sealed a pick; {opener} to choose a number (in the open)"
        if len(to_move) == 2:
            return head + f"{self.seat_name(0)} and {self.seat_name(1)} each choose a number in secret"
        chooser, other = to_move[0], 1 - to_move[0]
        if self.stuck[other]:
            note = f"{self.seat_name(other)} has no legal pick and sits out"
        else:
            note = f"{self.seat_name(other)} has chosen"
        return head + f"{note}; {self.seat_name(chooser)} to choose a number"

    def _round_log(self) -> list[JSONObject]:
        """Every revealed round: {"round", "picks" (None: sat out or forfeited), "scored"}."""
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
        return log

    def _describe(self, move: str, seat: int, after: NonconformityState) -> str:
        # Never a pick that is still secret: a pick is named only once its round is revealed.
        who, other = after.seat_name(seat), after.seat_name(1 - seat)
        if after.played == self.played:
            if move.startswith("c"):
                return f"{who} sealed a pick"
            if self.open_seal is not None:
                return f"{who} chose {after.pending[seat]} in the open"
            return f"{who} has chosen a number"
        entry = after._round_log()[-1]
        forfeit = next((x.seat for x in after.seals if x.round == entry["round"] and x.forfeited), None)
        picks = [
            f"{after.seat_name(s)} picked {pick}" if pick is not None
            else f"{after.seat_name(s)} gave up a sealed pick" if forfeit == s
            else f"{after.seat_name(s)} sat out"
            for s, pick in enumerate(entry["picks"])
        ]
        scorers = [after.seat_name(s) for s, scored in enumerate(entry["scored"]) if scored]
        outcome = "nobody's pick scores" if not scorers else f"{in_words(scorers)} {'scores' if len(scorers) == 1 else 'score'} a point"
        text = f"Round {entry['round']}: {in_words(picks)}; {outcome}"
        if move == FORFEIT:
            text += f", and {other} scores a point for the forfeit"
        elif "~" in move:
            text = f"{who} revealed the sealed pick, which matches its seal. " + text
        return text

    def _board(self, seat: int | None) -> JSONObject:
        over = self.is_over
        seal = self.open_seal
        bands = []
        for s in (0, 1):
            low, high = self.spans[1 - s]
            bands.append({"low": low, "high": high, "excluded": sorted(t for t in self.owned[1 - s] if low < t < high)})
        return {
            "round": None if over else self.played + 1,
            "rounds": self.rounds,
            "played": self.played,
            "max_pick": self.max_pick,
            "sequences": [list(q) for q in self.seqs],
            "term_rounds": [list(q) for q in self.term_rounds],
            "scored": [list(q) for q in self.scored],
            "round_log": self._round_log(),
            "bands": bands,
            "last": [q[-1] for q in self.seqs],
            "factors": [list(f) for f in self.factors],
            "legal_count": [0 if over else self.legal_count(s) for s in (0, 1)],
            "sat_out": list(self.stuck),
            "picked": [p is not None or seal is not None and seal.seat == s for s, p in enumerate(self.pending)],
            "pending": [p if s == seat or seal is not None else None for s, p in enumerate(self.pending)],
            # the same as the view's generic "sealing" says, kept for the pages that read them here
            "sealed": [seal is not None and seal.seat == s for s in (0, 1)],
            "seals": self.seal_log(),
            "forfeits": self.forfeits(),
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
        return [int(m) for m in self._picks(seat) if scores_against(int(m), span, theirs)]

    # -- record ----------------------------------------------------------

    def _encode_moves(self) -> str:
        tokens = list(self.history)
        for x in self.seals:
            if not x.open:
                tokens[2 * (x.round - 1) + x.seat] = x.token()
        seal = self.open_seal
        if seal is not None:
            pair = [SAT_OUT if p is None else str(p) for p in self.pending]
            pair[seal.seat] = seal.token()
            tokens += pair[:1] if seal.seat == 0 and self.pending[1] is None else pair
        elif self.pending[0] is not None:
            tokens.append(str(self.pending[0]))
        elif self.pending[1] is not None:
            tokens += [SAT_OUT, str(self.pending[1])]
        return "_".join(tokens)

    @classmethod
    def _decode_moves(cls, text: str, options: Options) -> Iterator[tuple[str, int | None]]:
        tokens = text.split("_") if text else []
        moves: list[tuple[str, int | None]] = []
        # Tokens alternate Player 1, Player 2, two to a round; the replay itself
        # tells a revealed round from a pending pick, and the re-encoding check
        # catches the rest. A sealed round is replayed in the order it was
        # played: the seal, the other seat's open pick, the reveal or forfeit.
        for first in range(0, len(tokens), 2):
            rnd, pair = first // 2 + 1, tokens[first:first + 2]
            slots = [_slot(token, rnd, seat) for seat, token in enumerate(pair)]
            sealed = [seat for seat, slot in enumerate(slots) if slot is not None]
            if not sealed:
                moves += [(t, seat) for seat, t in enumerate(pair) if t != SAT_OUT]
                continue
            sealer = sealed[0]
            seal, ending = slots[sealer] or ("", "")
            moves.append((seal, sealer))
            moves += [(t.partition("~")[0], seat) for seat, t in enumerate(pair) if seat != sealer and t != SAT_OUT]
            if ending:
                moves.append((ending, sealer))
        return iter(moves)


def _any_of(words: list[str]) -> str:
    """"2", "2 or 3", "2, 3 or 5": a pick needs only one of the primes."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _slot(token: str, rnd: int, seat: int) -> tuple[str, str] | None:
    """A record token: None for a plain pick or '-', else a sealed pick's slot
    (its seal, then its reveal or forfeit once the round is over, or "");
    InvalidRecord, naming the round and the seat, when it is neither."""
    if _TOKEN.fullmatch(token):
        return None
    where = f"round {rnd}: Player {seat + 1}'s"
    slot = NonconformityState.sealed_slot(token, where)
    if slot is None:
        raise InvalidRecord(f"{where} move {token[:20]!r} in the record is not understood: moves are numbers or '-', joined by '_'")
    return slot


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
