"""Computer players for every game: three levels behind one entry point.

    >>> import quetgames
    >>> s = quetgames.new_game(next(iter(quetgames.GAMES)))
    >>> move = quetgames.computer_move(s, level="greedy", seed=1)
    >>> move in s.legal_moves()
    True

Levels:

- ``random``: a uniformly random legal move.
- ``greedy``: the move with the best immediate gain (the mover's score change
  minus the best opponent's), never a move that loses on the spot; ties are
  broken at random. A game's adapter may weigh more than one move ahead
  where a turn is longer than one move, or break ties with game knowledge.
- ``strong``: Monte-Carlo tree search (UCT) with progressive widening over
  moves ordered by a cheap game-specific prior, rollouts with a light
  game-specific policy, and game knowledge where it pays (see each game's
  adapter). A game of simultaneous secret moves uses flat Monte-Carlo over a
  few candidates, the other seats' moves drawn from a model, never from
  their actual pending moves.

The package: `search.py` holds the searches, the time budget and the generic
player (any sequential game, through the public API); one module per game
holds its adapter, which searches a light mutable copy of the game's own typed
state with the game module's own rule functions (never the screen data of
`State.view`). `player_for(game)` gives a game's adapter; `registry.register`
files it, so the game object itself knows nothing of its players.

Every decision is reproducible: randomness comes only from a `random.Random`
seeded with the caller's seed, the level, the seat and the public record of the
position. With a time ``budget`` alone, ``strong`` runs as many search
iterations as fit, so its moves can differ between machines; pass
``iterations=N`` to run exactly N iterations instead (the budget is then not
consulted), which makes whole games reproducible anywhere.

The computer decides from public information only: the position is first
reduced to what the seat may know (`State.secret_free`, the same reduction
`view(seat)` uses), so a pending secret pick of another seat cannot leak in.
"""

from __future__ import annotations

import random
import sys
import time

from ..base import LEVELS, Game, State
from ..errors import IllegalMove, InvalidOptions
from .search import AnyPlayer, Budget, GenericPlayer

GENERIC: AnyPlayer = GenericPlayer()  # for a game that was never registered
ADAPTERS: dict[str, AnyPlayer] = {}  # game id -> its adapter; registry.register fills it

__all__ = ["LEVELS", "ADAPTERS", "computer_move", "player_for", "check_search_arguments"]


def player_for(game: Game) -> AnyPlayer:
    """What the computer players know of `game`: its adapter, or the generic player."""
    return ADAPTERS.get(game.id, GENERIC)


def __getattr__(name: str) -> object:
    """A name an adapter module exports (`quetgames.players.<name>`, as callers
    wrote before adapters were kept apart), found without naming the game."""
    for player in ADAPTERS.values():
        module = sys.modules.get(type(player).__module__)
        if module is not None and name in getattr(module, "__all__", ()):
            return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

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
    seat = state.check_seat(seat)
    # Only what this seat may know: a pending secret of another seat is gone.
    public = state.secret_free(seat)
    rng = random.Random(f"{seed}|{level}|{seat}|{public.moves_record}")
    player = player_for(state.game)
    if level == "random":
        return player.random_move(public, seat, rng)
    if level == "greedy":
        return player.greedy_move(public, seat, rng)
    return player.strong_move(public, seat, rng, Budget(deadline, iterations))
