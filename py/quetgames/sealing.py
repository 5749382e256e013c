"""Sealed simultaneous moves: commit now, reveal later, for any game whose
joint move is secret and is played where nobody holds every secret (by link).

A seat that chooses first in a round may *seal* its move instead of playing
it: the record gets only a commitment, and the move stays on the sealer's
device until the round's reveal. Every token is the same in every game:

- ``c<64 hex>`` seals a move: the hex is `commitment(salt, move)`, SHA-256
  of salt + ":" + move. The engine never learns the move until the reveal
  (`SealedState.seal(move, salt, seat)` checks the move and plays this).
- ``<move>~<salt>`` reveals it; the salt is 16 to 24 letters (A-Z, a-z) and
  digits, and the pair must match the commitment.
- ``f`` forfeits it: the sealer gives the move up (what that costs is the
  game's rule).

In a record the sealer's slot of the round is the seal, followed once the
round is over by ``~`` and the reveal, or by ``~f``. The game decides where
its slots stand and what a round is; this module owns the tokens, the
commitment, the checks with their messages, and what a page needs to know
(`SealedState.sealing_view`, the view's ``sealing``):

- ``forfeit``: the move that gives up an open seal;
- ``sealed``: the seats whose seal of this round is still open;
- ``to_reveal``: those of them to move now (they reveal or forfeit);
- ``may_seal``: the seats that may seal their move now;
- ``open``: the open seals, ``{"round", "seat", "commitment", "forfeit_words"}``
  (the commitment finds the secret a device keeps for one; the words say
  what giving it up costs, by the game's rules);
- ``noun``: what the game calls a sealed move ("pick"), for the page's words;
- ``given_up``: every seal of the game given up, ``{"round", "seat",
  "commitment"}``, so a device that still holds the secret of one can say so.

Apart from ``given_up``, only the round open now is described, so two games that reached the same
position, one by sealed rounds and one at a shared screen, have the same
``sealing``; `SealedState.seal_log()` lists every seal of the game.

Any number of seats: a round may hold one open seal per seat; the game says
which seats may seal (its `_check_may_seal` hook).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Self

from .base import State, in_words
from .errors import IllegalMove, InvalidRecord
from .data import JSONObject

__all__ = ["FORFEIT", "SALT_MIN", "SALT_MAX", "Seal", "SealedState", "commitment", "seal_move", "is_sealing_move"]

FORFEIT = "f"  # the move that gives up a sealed move
SEAL = "c"  # a seal is this letter and the commitment's 64 hex digits
SALT_MIN, SALT_MAX = 16, 24  # a reveal's salt: this many letters and digits (the record's length rule)
_SALT_TEXT = rf"[A-Za-z0-9]{{{SALT_MIN},{SALT_MAX}}}"
_SEAL = re.compile(r"c([0-9a-f]{64})")
_SALT = re.compile(_SALT_TEXT)


def commitment(salt: str, move: str) -> str:
    """The seal on a move: SHA-256 of salt + ":" + move (UTF-8), as 64
    lower-case hex digits.

    >>> commitment("0123456789abcdef0123", "12")[:16]
    'd69dc2547bbf00f3'
    """
    return hashlib.sha256(f"{salt}:{move}".encode()).hexdigest()


def seal_move(move: str, salt: str) -> str:
    """The move that seals `move` with `salt`: 'c' and the commitment."""
    return SEAL + commitment(salt, move)


def is_seal(move: str) -> bool:
    return move.startswith(SEAL)


def is_sealing_move(move: str) -> bool:
    """Whether `move` is a seal, a reveal or a forfeit (not an ordinary move)."""
    return move.startswith(SEAL) or "~" in move or move == FORFEIT


@dataclass(frozen=True)
class Seal:
    """A sealed move: the round, the seat, the commitment (hex) and, once the
    round is over, how it ended: the revealed move and its salt, or a forfeit."""

    round: int
    seat: int
    commitment: str
    move: str | None = None
    salt: str | None = None
    forfeited: bool = False

    @property
    def pick(self) -> str | None:
        """The revealed move (the name games of secret picks give it)."""
        return self.move

    @property
    def open(self) -> bool:
        return self.salt is None and not self.forfeited

    def token(self) -> str:
        """The sealer's slot of the round in the record."""
        if self.forfeited:
            return f"{SEAL}{self.commitment}~{FORFEIT}"
        if self.salt is not None:
            return f"{SEAL}{self.commitment}~{self.move}~{self.salt}"
        return f"{SEAL}{self.commitment}"

    def to_json(self) -> JSONObject:
        return {"round": self.round, "seat": self.seat, "commitment": self.commitment,
                "revealed": self.salt is not None, "forfeited": self.forfeited}


class SealedState(State):
    """A state whose joint secret move may be sealed. A game subclasses it
    instead of `State`, sets `sealed_move` (a regular expression of the moves
    that may be sealed) and implements the hooks below; `_apply` stays the
    game's own for ordinary moves and is reached through `_apply_plain`."""

    __slots__ = ("seals",)

    seals: tuple[Seal, ...]  # every sealed move so far, by round; those of the current round may be open

    sealed_move: ClassVar[str] = r"[^~_ ]{1,40}"  # what a sealed move looks like in a reveal
    sealed_noun: ClassVar[str] = "move"  # what the game calls the move a seat seals, in messages
    sealed_example: ClassVar[str] = "12"  # a move, for the message that shows how a reveal is written

    # -- hooks a game implements ------------------------------------------

    def _round(self) -> int:  # pragma: no cover
        """The round (joint move) open now, from 1."""
        raise NotImplementedError

    def _check_may_seal(self, seat: int) -> None:  # pragma: no cover
        """Raise IllegalMove, in words, when `seat` may not seal its move now."""
        raise NotImplementedError

    def _check_sealed(self, move: str, seat: int) -> None:  # pragma: no cover
        """Raise IllegalMove, in words, when `seat` could not play `move` now."""
        raise NotImplementedError

    def _forfeit_words(self, seat: int) -> str:
        """What giving up `seat`'s open seal costs, in words, as a sentence
        without its full stop (the game's rule; a neutral default)."""
        return f"{self.seat_name(seat)} gets no {self.sealed_noun} this round"

    def _resolve_seal(self, seal: Seal, move: str | None) -> None:  # pragma: no cover
        """On this fresh copy, go on after `seal` ended: revealed as `move`
        (checked) or forfeited (None)."""
        raise NotImplementedError

    def _apply_plain(self, move: str, seat: int) -> Self:  # pragma: no cover
        """An ordinary move (the game's own `_apply`)."""
        raise NotImplementedError

    def _plain_legal(self, seat: int) -> list[str]:  # pragma: no cover
        raise NotImplementedError

    # -- the protocol --------------------------------------------------------

    def open_seals(self) -> tuple[Seal, ...]:
        """The seals of this round still waiting for their reveal (or forfeit)."""
        return tuple(s for s in self.seals if s.open)

    def open_seal_of(self, seat: int) -> Seal | None:
        return next((s for s in self.seals if s.open and s.seat == seat), None)

    def _seat(self, seat: object) -> int:
        seal = None if isinstance(seat, bool) or not isinstance(seat, int) else self.open_seal_of(seat)
        to_move = self._to_move()
        if seal is not None and seal.seat not in to_move:
            name = self.seat_name(seal.seat)
            others = in_words([self.seat_name(s) for s in to_move])
            raise IllegalMove(f"round {seal.round}: {name} has sealed a {self.sealed_noun}; {others} chooses next, then {name} reveals it")
        return super()._seat(seat)

    def _legal(self, seat: int) -> list[str]:
        if self.open_seal_of(seat) is not None:
            return [FORFEIT]  # the reveal needs the salt, which only the sealer has
        return self._plain_legal(seat)

    def _apply(self, move: str, seat: int) -> Self:
        noun = self.sealed_noun
        if is_seal(move):
            return self._sealed(move, seat)
        seal = self.open_seal_of(seat)
        if "~" in move or move == FORFEIT:
            if seal is None:
                what = "reveal" if "~" in move else "forfeit"
                raise IllegalMove(f"round {self._round()}: {self.seat_name(seat)} has no sealed {noun} to {what}")
            return self._unsealed(move, seal)
        if seal is not None:
            raise IllegalMove(
                f"round {seal.round}: {self.seat_name(seat)} sealed a {noun} this round: only its reveal "
                f"(the {noun} with its salt) or its forfeit can follow, never another {noun}"
            )
        return self._apply_plain(move, seat)

    def _sealed(self, move: str, seat: int) -> Self:
        found = _SEAL.fullmatch(move)
        if found is None:
            raise IllegalMove(f"{move[:30]!r}{'…' if len(move) > 30 else ''} is not a seal: write 'c' and the 64 hex digits of the {self.sealed_noun}'s commitment")
        self._check_may_seal(seat)
        new = self._copy()
        new.seals = self.seals + (Seal(self._round(), seat, found.group(1)),)
        return new

    def _unsealed(self, move: str, seal: Seal) -> Self:
        """The round after the sealer's reveal (the move with its salt) or forfeit."""
        rnd, name, noun = seal.round, self.seat_name(seal.seat), self.sealed_noun
        index = self.seals.index(seal)
        new = self._copy()
        if move == FORFEIT:
            new.seals = self.seals[:index] + (replace(seal, forfeited=True),) + self.seals[index + 1:]
            new._resolve_seal(seal, None)
            return new
        found = re.fullmatch(rf"({self.sealed_move})~({_SALT_TEXT})", move)
        if found is None:
            raise IllegalMove(
                f"round {rnd}: {move[:40]!r} is not a reveal: write the {noun}, '~' and its salt "
                f"({SALT_MIN} to {SALT_MAX} letters and digits), like {self.sealed_example}~{'x' * SALT_MIN}"
            )
        text, salt = found.groups()
        if commitment(salt, text) != seal.commitment:
            raise IllegalMove(f"round {rnd}: the {noun} revealed for {name} does not match the seal {name} sent")
        try:
            self._check_sealed(text, seal.seat)
        except IllegalMove as exc:
            raise IllegalMove(f"round {rnd}: {name}'s sealed {noun} cannot be played ({exc}); it can only be forfeited") from None
        new.seals = self.seals[:index] + (replace(seal, move=text, salt=salt),) + self.seals[index + 1:]
        new._resolve_seal(seal, text)
        return new

    def seal(self, move: str, salt: str, seat: int | None = None) -> Self:
        """The state after `seat` seals `move` with `salt` (16 to 24 letters and
        digits, secret and random): the record gets only the commitment. The
        move is checked first, so a sealed move can always be revealed; the
        sealer keeps the move and the salt for the reveal."""
        noun = self.sealed_noun
        if not isinstance(move, str) or not isinstance(salt, str):
            raise IllegalMove(f"a sealed {noun} and its salt are written as text")
        if not _SALT.fullmatch(salt):
            raise IllegalMove(f"a salt is {SALT_MIN} to {SALT_MAX} letters (A-Z, a-z) and digits")
        if self.is_over:
            raise IllegalMove("the game is over: no more moves can be played")
        self._check_sealed(move[:200], self._seat(seat))
        return self.play(seal_move(move, salt), seat)

    def reveal(self, move: str, salt: str, seat: int | None = None) -> Self:
        """The state after `seat` reveals its sealed `move` with its `salt`."""
        if not isinstance(move, str) or not isinstance(salt, str):
            raise IllegalMove(f"a revealed {self.sealed_noun} and its salt are written as text")
        return self.play(f"{move}~{salt}"[:200], seat)

    def _may_seal(self, seat: int) -> bool:
        if self.is_over or seat not in self._to_move():
            return False
        try:
            self._check_may_seal(seat)
        except IllegalMove:
            return False
        return True

    def sealing_view(self) -> JSONObject:
        """What a page needs of the sealed moves (see the module's docstring)."""
        to_move = self._to_move()
        sealed = [s.seat for s in self.open_seals()]
        return {
            "forfeit": FORFEIT,
            "sealed": sealed,
            "to_reveal": [s for s in sealed if s in to_move],
            "may_seal": [s for s in range(self.players) if self._may_seal(s)],
            "open": [{"round": x.round, "seat": x.seat, "commitment": x.commitment,
                      "forfeit_words": self._forfeit_words(x.seat)} for x in self.open_seals()],
            "noun": self.sealed_noun,
            "given_up": [{"round": x.round, "seat": x.seat, "commitment": x.commitment} for x in self.seals if x.forfeited],
        }

    def seal_log(self) -> list[JSONObject]:
        """Every seal of the game, ``{"round", "seat", "commitment",
        "revealed", "forfeited"}``: never a salt, nor a move not yet revealed."""
        return [x.to_json() for x in self.seals]

    def forfeits(self) -> list[int]:
        """Per seat, how many sealed moves it gave up."""
        return [sum(x.forfeited for x in self.seals if x.seat == s) for s in range(self.players)]

    def _sealing(self) -> JSONObject | None:
        return self.sealing_view()

    # -- words and records ---------------------------------------------------

    def _move_words(self, move: str, seat: int) -> str:
        name, noun = self.seat_name(seat), self.sealed_noun
        if is_seal(move):
            return f"{name} sealed a {noun}"
        if move == FORFEIT:
            return f"{name} gave up the sealed {noun}"
        if "~" in move:
            return f"{name} revealed {move.partition('~')[0]}"
        return super()._move_words(move, seat)

    def _change_words(self, mine: tuple[str, int], theirs: tuple[str, int]) -> str:
        (move, seat) = mine
        if is_seal(move) and theirs != mine:
            name = self.seat_name(seat)
            if is_seal(theirs[0]) and theirs[1] == seat:
                return f"the seal {name} sent is not the one in this link (the link carries another seal in its place)"
            return f"the seal {name} sent is not in this link ({super()._change_words(mine, theirs)})"
        return super()._change_words(mine, theirs)

    def _commits(self, move: str) -> bool:
        return is_seal(move)

    @classmethod
    def sealed_slot(cls, token: str, where: str) -> tuple[str, str] | None:
        """A record token read as a sealer's slot: (the seal move, then the
        reveal or forfeit, or "" while open); None when the token is not a
        seal at all. InvalidRecord, after `where` ("round 2: Player 1's"),
        for a damaged seal or a reveal or forfeit with no seal before it."""
        noun = cls.sealed_noun
        if token.startswith(SEAL):
            if not re.fullmatch(rf"c([0-9a-f]{{64}})(?:~({cls.sealed_move}~{_SALT_TEXT}|{FORFEIT}))?", token):
                raise InvalidRecord(
                    f"{where} sealed {noun} in the record is damaged (a seal is 'c' and 64 hex digits, "
                    "followed once the round is over by '~' and the " + noun + " with its salt, or by '~f')"
                )
            seal, _, ending = token.partition("~")
            return seal, ending
        if re.fullmatch(rf"({cls.sealed_move})~({_SALT_TEXT})", token) or token == FORFEIT:
            raise InvalidRecord(f"{where} reveal or forfeit in the record has no sealed {noun} before it")
        return None
