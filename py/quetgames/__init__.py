"""Quet Games: the rules of five number games invented by Leroy Quet.

    >>> import quetgames
    >>> s = quetgames.new_game("multiplications", players=2, k=3)
    >>> s.to_move
    (0,)
    >>> quetgames.load(s.play("c4").record).history
    ('c4',)
    >>> len(s.game_id)   # every new game has an id of its own
    12

Every game is played through the same small API: `new_game`, `load`, and the
state's `to_move`, `legal_moves`, `play`, `scores`, `winners`, `record` and
`view`. Bad input of any kind raises a `RulesError` with a plain message.
"""

from __future__ import annotations


from .analysis import Analysis, MoveAnalysis, analyse, judge_each
from .base import Game, State
from .errors import IllegalMove, InvalidNote, InvalidOptions, InvalidRecord, RulesError
from .players import computer_move
from .record import SideLine, new_game_id
from .registry import GAMES, load
from .data import JSON

__all__ = [
    "GAMES",
    "Game",
    "State",
    "new_game",
    "load",
    "RulesError",
    "IllegalMove",
    "InvalidRecord",
    "InvalidOptions",
    "InvalidNote",
    "SideLine",
    "new_game_id",
    "computer_move",
    "analyse",
    "judge_each",
    "Analysis",
    "MoveAnalysis",
]
__version__ = "0.1.0"


def new_game(game_id: str, /, **options: JSON) -> State:
    """A new game of `game_id` with the given options (the rest take defaults),
    under a freshly drawn game id (`State.game_id`, docs/RECORD.md).

    Positional-only, so an option named like a parameter (``game_id``, ``self``)
    is refused by the game as an unknown option, in words."""
    game = GAMES.get(game_id) if isinstance(game_id, str) else None
    if game is None:
        known = ", ".join(GAMES)
        raise InvalidOptions(f"there is no game {game_id!r:.40}; the games are {known}")
    return game.new(**options).with_game_id(new_game_id())
