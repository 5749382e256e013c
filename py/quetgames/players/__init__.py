"""Computer players for every game: three levels behind one entry point.

    >>> import quetgames
    >>> s = quetgames.new_game("multiplications")
    >>> move = quetgames.computer_move(s, level="greedy", seed=1)
    >>> move in s.legal_moves()
    True

Levels:

- ``random``: a uniformly random legal move.
- ``greedy``: the move with the best immediate gain (the mover's score change
  minus the best opponent's), never a move that loses on the spot; ties are
  broken at random (Enumeration corner: towards numbers in the last row and
  column that help its side of the corner count). Convoluted Coprimality: a
  turn is a whole block, so greedy looks through the rest of its own block,
  surviving it if it can and, if it can, leaving the next seat trapped.
  Nonconformity: score this round if possible, widening the own span (the
  opponent's scoring band) as little as possible.
- ``strong``: Monte-Carlo tree search (UCT) with progressive widening over
  moves ordered by a cheap game-specific prior, rollouts with a light
  game-specific policy, and game knowledge where it pays (see each game's
  module). Nonconformity, a game of simultaneous secret picks, uses flat
  Monte-Carlo over a few candidate picks with the opponent's pick drawn from a
  model of the opponent, never from the opponent's actual pending pick.

The package: `search.py` holds the searches, the time budget and the generic
player (any sequential game, through the public API); one module per game
holds its adapter, which searches a light mutable copy of the game's own typed
state with the game module's own rule functions (never the screen data of
`State.view`). The game's adapter is `state.game.player`, set by the registry.

Every decision is reproducible: randomness comes only from a `random.Random`
seeded with the caller's seed, the level, the seat and the public record of the
position. With a time ``budget`` alone, ``strong`` runs as many search
iterations as fit, so its moves can differ between machines; pass
``iterations=N`` to run exactly N iterations instead (the budget is then not
consulted), which makes whole games reproducible anywhere.

The computer decides from public information only: the position is first
reduced to what the seat may know (`State._secret_free`, the same reduction
`view(seat)` uses), so a pending secret pick of another seat cannot leak in.
"""

from __future__ import annotations

import random
import time

from ..base import LEVELS, State
from ..errors import IllegalMove, InvalidOptions
from .enumeration import SOLITAIRE_TABLE, solitaire_best
from .search import Budget, Player

GENERIC = Player()  # for a game that was never registered (registry.register sets Game.player)

__all__ = ["LEVELS", "computer_move", "solitaire_best", "SOLITAIRE_TABLE"]

MAX_BUDGET = 60.0  # seconds
MAX_ITERATIONS = 1_000_000
MARGIN = 0.85  # strong stops searching at this fraction of the budget


def check_search_arguments(seed: object, budget: object, iterations: object) -> None:
    """Raise InvalidOptions, in words, for a seed, budget or iteration cap a search cannot take."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise InvalidOptions(f"the seed is a whole number from 0 to 2**63 - 1, not {seed!r:.40}")
    if isinstance(budget, bool) or not isinstance(budget, (int, float)) or not 0 < budget <= MAX_BUDGET:
        raise InvalidOptions(f"the budget is a number of seconds above 0 and at most {MAX_BUDGET:g}, not {budget!r:.40}")
    if iterations is not None and (
        isinstance(iterations, bool) or not isinstance(iterations, int) or not 1 <= iterations <= MAX_ITERATIONS
    ):
        raise InvalidOptions(f"iterations is a whole number from 1 to {MAX_ITERATIONS}, not {iterations!r:.40}")


def computer_move(
    state: State,
    seat: int | None = None,
    level: str = "strong",
    seed: int = 0,
    budget: float = 1.0,
    *,
    iterations: int | None = None,
) -> str:
    """A legal move for `seat` (which may be omitted when one seat is to move),
    chosen by the computer level `level` within about `budget` seconds.

    Raises IllegalMove for a seat that is not to move or a finished game, and
    InvalidOptions for an unknown level or a bad seed, budget or iteration cap.
    """
    if not isinstance(state, State):
        raise InvalidOptions(f"computer_move needs a game state, not {type(state).__name__}")
    if not isinstance(level, str) or level not in LEVELS:
        raise InvalidOptions(f"the computer level is one of {', '.join(LEVELS)}, not {level!r:.40}")
    check_search_arguments(seed, budget, iterations)
    deadline = time.perf_counter() + budget * MARGIN
    if state.is_over:
        raise IllegalMove("the game is over: no more moves can be played")
    seat = state._seat(seat)
    # Only what this seat may know: a pending secret of another seat is gone.
    public = state._secret_free(seat)
    rng = random.Random(f"{seed}|{level}|{seat}|{public.moves_record}")
    player = getattr(state.game, "player", GENERIC)
    if level == "random":
        return player.random_move(public, seat, rng)
    if level == "greedy":
        return player.greedy_move(public, seat, rng)
    return player.strong_move(public, seat, rng, Budget(deadline, iterations))
