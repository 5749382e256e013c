"""The registry of games: one module per game, each ending with its `GAME`."""

from __future__ import annotations

from ..base import Game
from . import convoluted_coprimality
from . import enumeration
from . import multiplications
from . import nonconformity
from . import prime_target

ALL: tuple[Game, ...] = (
    convoluted_coprimality.GAME,
    enumeration.GAME,
    multiplications.GAME,
    nonconformity.GAME,
    prime_target.GAME,
)
GAMES: dict[str, Game] = {game.id: game for game in ALL}
BY_CODE: dict[str, Game] = {game.code: game for game in ALL}
