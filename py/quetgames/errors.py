"""The errors the engine raises: one base class, four kinds.

Every message is written for a player: it names the input and says what is
wrong with it in plain words.
"""

from __future__ import annotations

__all__ = ["RulesError", "IllegalMove", "InvalidRecord", "InvalidOptions", "InvalidNote"]


class RulesError(ValueError):
    """Base class of every error the engine raises on bad input."""


class IllegalMove(RulesError):
    """A move (or a seat named with it) that cannot be played in this position."""


class InvalidRecord(RulesError):
    """A game record that cannot be read or does not replay."""


class InvalidOptions(RulesError):
    """An unknown game, an unknown option, or an option value out of range."""


class InvalidNote(RulesError):
    """A comment or side line that cannot be added: too long, not plain text,
    or at a move the game does not have."""
