"""The one list of games, and reading a record back into its game.

A game is added by writing its module under games/ (and, if the generic
computer player is not enough, its adapter under players/), then one
`register` line below; docs/ADDING_A_GAME.md has the steps. Everything else,
the public API, the bridge's game list, the command line and the tests, reads
`GAMES` (by id, in menu order) or `BY_CODE` (by the two letters of a record).
"""

from __future__ import annotations

import re

from .base import Game, State, decode_seats
from .errors import IllegalMove, InvalidOptions, InvalidRecord, RulesError
from .games import convoluted_coprimality, enumeration, multiplications, nonconformity, prime_target
from .players import ADAPTERS
from .players import convoluted_coprimality as convoluted_coprimality_player
from .players import enumeration as enumeration_player
from .players import multiplications as multiplications_player
from .players import nonconformity as nonconformity_player
from .players import prime_target as prime_target_player
from .players.search import AnyPlayer, GenericPlayer
from .record import Notes, parse_record
from .data import JSON

__all__ = ["GAMES", "BY_CODE", "register", "unregister", "load", "replay", "replay_record"]

GAMES: dict[str, Game] = {}
BY_CODE: dict[str, Game] = {}
_ID = re.compile(r"[a-z][a-z0-9-]{0,39}")
_CODE = re.compile(r"[a-z]{2}")


def register(game: Game, player: AnyPlayer | None = None) -> Game:
    """Add `game` to the list (after the others), with its computer adapter
    (None: the generic player, which plays any sequential game through the
    public API). Refuses an id or record code already taken."""
    if not _ID.fullmatch(game.id) or not _CODE.fullmatch(game.code):
        raise InvalidOptions(f"a game id is lower-case words joined by '-', and its code two letters: not {game.id!r}, {game.code!r}")
    if game.id in GAMES or game.code in BY_CODE:
        raise InvalidOptions(f"a game with the id {game.id!r} or the code {game.code!r} is already registered")
    ADAPTERS[game.id] = player if player is not None else GenericPlayer()
    GAMES[game.id] = game
    BY_CODE[game.code] = game
    return game


def unregister(game_id: str) -> None:
    """Take a game off the list again (for tests that register a toy game)."""
    game = GAMES.pop(game_id)
    del BY_CODE[game.code]
    ADAPTERS.pop(game_id, None)


# The games, in menu order.
register(convoluted_coprimality.GAME, convoluted_coprimality_player.PLAYER)
register(enumeration.GAME, enumeration_player.PLAYER)
register(multiplications.GAME, multiplications_player.PLAYER)
register(nonconformity.GAME, nonconformity_player.PLAYER)
register(prime_target.GAME, prime_target_player.PLAYER)


# -- records -------------------------------------------------------------------


def load(record: JSON) -> State:
    """Rebuild a game from its record, replaying and checking every move."""
    return replay_record(record)[2]


def replay(record: JSON, plies: int) -> tuple[State, int]:
    """The game of `record` as it stood after its first `plies` moves, and how
    many moves the whole record holds; for stepping through a game and undo.
    The whole record is checked first, so a bad record is refused however
    few moves are asked for."""
    state, moves, final = replay_record(record)
    total = len(moves)
    if isinstance(plies, bool) or not isinstance(plies, int) or not 0 <= plies <= total:
        raise InvalidRecord(f"that game has {total} moves; ask for a move from 0 to {total}")
    if plies == total:
        return final, total
    for move, seat in moves[:plies]:
        state = state.play(move, seat)
    return state.with_notes(final.notes.upto(plies)), total


def replay_record(record: JSON) -> tuple[State, list[tuple[str, int | None]], State]:
    """Check a record by playing it through; return its starting state, the
    (move, seat) pairs that replay its main line, and the final state with
    its notes (whose side lines are replayed and checked too)."""
    parts = parse_record(record)
    game = BY_CODE.get(parts.code)
    if game is None:
        raise InvalidRecord(f"the record names an unknown game {parts.code[:20]!r}")
    options = game.decode_options(parts.options)
    start = game.state_class.initial(game, options)
    if parts.seats is not None:
        start = start.with_seats(*decode_seats(parts.seats, start.players))
    start.game_id = parts.game_id
    start.branch = parts.branch
    state = start
    moves: list[tuple[str, int | None]] = []
    try:
        for move, seat in game.state_class.decode_moves(parts.moves, options):
            state = state.play(move, seat)
            moves.append((move, seat))
    except IllegalMove as exc:
        raise InvalidRecord(f"move {len(moves) + 1} of the record cannot be played: {exc}") from None
    if state.encoded_moves() != parts.moves:
        raise InvalidRecord("the record's moves are not written in the usual form")
    if parts.branch is not None and parts.branch[1] > state.plies:
        raise InvalidRecord(f"the record's branch is at move {parts.branch[1]}, but the game has {state.plies} moves")
    if parts.notes:
        state = _with_checked_notes(state, parts.notes)
    if parts.version > 1 and state.record != record:
        raise InvalidRecord("the record is not written in the usual form")
    return start, moves, state


def _with_checked_notes(state: State, notes: Notes) -> State:
    """`state` with `notes` read from its record, every comment's place and
    every side line checked as strictly as the moves."""
    for ply, _ in notes.comments:
        if ply > state.plies:
            raise InvalidRecord(f"the record has a comment after move {ply}, but the game has {state.plies} moves")
    checked = state.with_comment(0, "")  # a copy without notes, to add the lines to one by one
    for number, line in enumerate(notes.lines, start=1):
        if line.ply >= state.plies:
            raise InvalidRecord(f"side line {number} of the record branches off at move {line.ply}, "
                                f"but the game has only {state.plies} moves")
        try:
            checked = checked.with_line(line.ply, line.moves)
        except RulesError as exc:
            raise InvalidRecord(f"side line {number} of the record cannot be played: {exc}") from None
    # the lines as written (their moves are now checked), with the main line's comments
    return checked.with_notes(notes)
