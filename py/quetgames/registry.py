"""The one list of games, and reading a record back into its game.

A game is added by writing its module under games/ (and, if the generic
computer player is not enough, its adapter under players/), then one
`register` line below; docs/ADDING_A_GAME.md has the steps. Everything else,
the public API, the bridge's game list, the command line and the tests, reads
`GAMES` (by id, in menu order) or `BY_CODE` (by the two letters of a record).
"""

from __future__ import annotations

import re
from typing import Any

from .base import MAX_RECORD, RECORD_VERSION, Game, State, decode_seats
from .errors import IllegalMove, InvalidOptions, InvalidRecord
from .games import convoluted_coprimality, enumeration, multiplications, nonconformity, prime_target
from .players import convoluted_coprimality as convoluted_coprimality_player
from .players import enumeration as enumeration_player
from .players import multiplications as multiplications_player
from .players import nonconformity as nonconformity_player
from .players import prime_target as prime_target_player
from .players.search import Player

__all__ = ["GAMES", "BY_CODE", "register", "unregister", "load", "replay"]

GAMES: dict[str, Game] = {}
BY_CODE: dict[str, Game] = {}
_ID = re.compile(r"[a-z][a-z0-9-]{0,39}")
_CODE = re.compile(r"[a-z]{2}")
_RECORD_CHARS = re.compile(r"[A-Za-z0-9._~-]*")


def register(game: Game, player: Player | None = None) -> Game:
    """Add `game` to the list (after the others), with its computer adapter
    (None: the generic player, which plays any sequential game through the
    public API). Refuses an id or record code already taken."""
    if not _ID.fullmatch(game.id) or not _CODE.fullmatch(game.code):
        raise InvalidOptions(f"a game id is lower-case words joined by '-', and its code two letters: not {game.id!r}, {game.code!r}")
    if game.id in GAMES or game.code in BY_CODE:
        raise InvalidOptions(f"a game with the id {game.id!r} or the code {game.code!r} is already registered")
    game.player = player if player is not None else Player()
    GAMES[game.id] = game
    BY_CODE[game.code] = game
    return game


def unregister(game_id: str) -> None:
    """Take a game off the list again (for tests that register a toy game)."""
    game = GAMES.pop(game_id)
    del BY_CODE[game.code]


# The games, in menu order.
register(convoluted_coprimality.GAME, convoluted_coprimality_player.PLAYER)
register(enumeration.GAME, enumeration_player.PLAYER)
register(multiplications.GAME, multiplications_player.PLAYER)
register(nonconformity.GAME, nonconformity_player.PLAYER)
register(prime_target.GAME, prime_target_player.PLAYER)


# -- records -------------------------------------------------------------------


def load(record: Any) -> State:
    """Rebuild a game from its record, replaying and checking every move."""
    return _replay(record)[2]


def replay(record: Any, plies: int) -> tuple[State, int]:
    """The game of `record` as it stood after its first `plies` moves, and how
    many moves the whole record holds; for stepping through a game and undo.
    The whole record is checked first, so a bad record is refused however
    few moves are asked for."""
    state, moves, final = _replay(record)
    total = len(moves)
    if isinstance(plies, bool) or not isinstance(plies, int) or not 0 <= plies <= total:
        raise InvalidRecord(f"that game has {total} moves; ask for a move from 0 to {total}")
    if plies == total:
        return final, total
    for move, seat in moves[:plies]:
        state = state.play(move, seat)
    return state, total


def _replay(record: Any) -> tuple[State, list[tuple[str, int | None]], State]:
    """Check a record by playing it through; return its starting state, the
    (move, seat) pairs that replay it, and the final state."""
    if not isinstance(record, str):
        raise InvalidRecord(f"a record is text, not {type(record).__name__}")
    if len(record) > MAX_RECORD:
        raise InvalidRecord(f"that record is too long ({len(record)} characters; a game never needs more than {MAX_RECORD})")
    if not _RECORD_CHARS.fullmatch(record):
        raise InvalidRecord("that record holds characters a game record never has (only letters, digits and - . _ ~ appear)")
    parts = record.split(".")
    version = parts[0]
    if not re.fullmatch(r"q[1-9][0-9]{0,5}", version):
        raise InvalidRecord("that is not a Quet Games record: it should start with 'q' and a version number")
    if int(version[1:]) > RECORD_VERSION:
        raise InvalidRecord(f"that record was made by a newer version of Quet Games (format {version[1:]}; this one reads format {RECORD_VERSION})")
    if len(parts) not in (4, 5):
        raise InvalidRecord("that record is incomplete: it should have a game, its options and its moves")
    game = BY_CODE.get(parts[1])
    if game is None:
        raise InvalidRecord(f"the record names an unknown game {parts[1][:20]!r}")
    options = game.decode_options(parts[2])
    start = game.state_class.initial(game, options)
    if len(parts) == 5:
        start = start.with_seats(*decode_seats(parts[4], start.players))
    state = start
    moves: list[tuple[str, int | None]] = []
    try:
        for move, seat in game.state_class._decode_moves(parts[3], options):
            state = state.play(move, seat)
            moves.append((move, seat))
    except IllegalMove as exc:
        raise InvalidRecord(f"move {len(moves) + 1} of the record cannot be played: {exc}") from None
    if state._encode_moves() != parts[3]:
        raise InvalidRecord("the record's moves are not written in the usual form")
    return start, moves, state
