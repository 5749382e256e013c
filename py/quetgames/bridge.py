"""The one boundary between the browser and the engine: JSON text in, JSON text out.

The web worker calls `call(name, args_json)` and gets back
``{"ok": true, "result": ...}`` or ``{"ok": false, "error": {"type", "message"}}``.
Nothing else of the engine is reachable from JavaScript, so every argument is
checked here as untrusted input. Games travel as records; the last few states
are kept so that a move does not replay the whole game.

Every answer that holds a game gives it twice, by name: ``record``, the public
record (no pick still secret: the one for links, the address bar, exports and
embeds), and ``private_record``, the game as this device holds it (with a
pick made in secret at a shared screen; to play on from, kept on this device
only). They differ only while such a pick is pending.

``compare`` {mine, theirs} → {relation, ply, where, mine, theirs, message}:
whether a link (theirs) continues the game this device holds (mine), and if
not the first move where they part, in words (see compare.py for what makes
two records the same game).

Sealed moves (a game of joint secret moves played by link, sealing.py). The
seal travels in the record; the secret never does:

- ``seal`` {record, seat, pick, salt} → {record, view, keep}: checks the pick
  and plays its seal (``c`` and the commitment). ``record`` is public (it holds
  the commitment only) and is what the link carries; ``keep`` is
  {seat, round, pick, salt, commitment}, which only the sealer's device keeps,
  for the reveal. The salt is 16 to 24 letters and digits from a secure
  random source (the page draws it; the engine has no such source).
- ``reveal`` {record, seat, pick, salt} → {record, view}: plays the reveal
  ``<pick>~<salt>``; refused (IllegalMove, naming the round and the seat) when
  it does not match the seal.
- A forfeit is an ordinary ``play`` of the view's ``sealing.forfeit`` move by
  the sealer's seat.
- ``open``/``play`` of any record check every reveal in it against its seal.
- ``commitment`` {salt, pick} → hex, as before (the game's own function).

Puzzles (docs/PUZZLES.md): the page fetches puzzles.json and sends a puzzle
back with each call, since the worker holds no file of them.

- ``puzzle`` {puzzle} → {id, game, record, view, board, question, moves
  [{move, words}], rating}; with ``move`` → {right, move, value, reply,
  words}, judged against the stored proof; with ``solution`` true →
  {solutions, line (in words), end}; with ``move`` and ``why`` true, a
  wrong move's line to play step by step → {move, steps [{seat, move,
  words, view}], end}. The puzzle is checked against its record first.
- ``puzzle_of_the_day`` {ids, date} → the id of that date's puzzle.
- ``mistakes`` {record, analysis?} → {game, record, exercises: [{ply, seat,
  seat_name, ply_before, record, move, result, result_after, solutions, complete,
  others, task, words}]}: the game's proved mistakes (the moves the
  analysis, when given, marks ? or ?? with proved values) as exercises;
  with ``ply`` and ``move`` → {right, move, value, reply, words}, that move
  tried at the exercise of the game's ply-th move (quetgames.mistakes).

Lessons (docs/LEARN.md): one call, ``lesson``, with a mode as ``puzzle`` has.

- ``lesson`` {} → [{game, name, steps: [{id, task, teaches, check}]}], every
  game's lesson in short (no positions).
- ``lesson`` {game} → {game, name, inventor, sections, steps: [{id, number,
  task, teaches, check, seat, seat_name, options, record, view, computer}]}.
- ``lesson`` {game, step, move, record?} → {right, refused, done, move,
  words, view_after}: the move judged by the engine (refused: the engine's
  reason). A ``play`` step (the last, a game against the computer) needs
  ``record``, the game so far (the step's record at first), and answers with
  the computer's moves played too and {record, over, won} besides.
- ``lesson`` {game, step, answer: true, record?} → {moves, words}: "show me".
"""

from __future__ import annotations

import json
import traceback
from collections import OrderedDict
from collections.abc import Callable

from . import GAMES, State, load, new_game
from .compare import compare, news
from .errors import RulesError
from .help import game_help
from .players import LEVELS, computer_move, player_for
from .record import new_game_id, parse_record
from .registry import BY_CODE, replay
from .sealing import SealedState, commitment
from .data import JSON, JSONObject

__all__ = ["call"]

# States by record, newest last. Large enough for the page's look-ahead
# (web/ahead.js: up to 48 positions after one), so the position a click lands
# on is still here for the next round instead of being replayed from its record.
_CACHE_SIZE = 64
_cache: OrderedDict[str, State] = OrderedDict()


class BadRequest(RulesError):
    """A call from the page that is not shaped as the protocol says."""


def _remember(state: State) -> State:
    record = state.record
    _cache[record] = state
    _cache.move_to_end(record)
    while len(_cache) > _CACHE_SIZE:
        _cache.popitem(last=False)
    return state


def _state(args: JSONObject) -> State:
    record = args.get("record")
    if not isinstance(record, str):
        raise BadRequest("the call needs a game record")
    state = _cache.get(record)
    if state is None:
        state = _remember(load(record))
    else:
        _cache.move_to_end(record)
    return state


def _seat(args: JSONObject) -> int | None:
    seat = args.get("seat")
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
        raise BadRequest("a seat is a whole number")
    return seat


def _answer(state: State, seat: int | None) -> JSONObject:
    """A game for the page: `record` is public (safe in any link, address or
    export: no pick still secret), `private_record` the whole game as this
    device holds it (to play on from, and to keep on this device only)."""
    return {"record": state.public_record, "private_record": state.record, "view": state.view(seat)}


def _games(args: JSONObject) -> list[JSONObject]:
    """Every game's description, with the rest of its "How to play" (`help`:
    intro and settings) and its worked examples, each with the engine's view of its
    position so the page can draw it before Python has loaded."""
    return [{
        **game.describe(),
        "computer_levels": list(LEVELS),
        "help": game_help(game),
        # a still picture: its view offers no moves (and keeps the catalog small)
        "examples": [{"caption": e.caption, "record": e.record, "view": {**load(e.record).view(), "legal_moves": []}}
                     for e in game.examples],
    } for game in GAMES.values()]


def _new(args: JSONObject) -> JSONObject:
    options = args.get("options", {})
    if not isinstance(options, dict):
        raise BadRequest("options come as an object of names and values")
    game: JSON = args.get("game")  # checked by new_game, like every value below
    state = new_game(game, **options)
    seats = args.get("seats")
    if seats is not None:
        if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
            raise BadRequest("seats come as a list of {name, kind}")
        state = state.with_seats([s.get("name", "") for s in seats], [s.get("kind", "human") for s in seats])
    return _answer(_remember(state), None)


def _open(args: JSONObject) -> JSONObject:
    return _answer(_state(args), _seat(args))


def _play(args: JSONObject) -> JSONObject:
    """{record, move, seat?, public?}: the move played, for `seat` when given.
    The answer's view is that seat's (which may show its own secret pick), or
    with `public` true the public view, which a page keeps (one call instead
    of a `play` and an `open`)."""
    seat = _seat(args)
    public = args.get("public", False)
    if not isinstance(public, bool):
        raise BadRequest("public is true or false")
    move: JSON = args.get("move")
    state = _state(args).play(move, seat)
    return _answer(_remember(state), None if public else seat)


def _view(args: JSONObject) -> JSONObject:
    return _state(args).view(_seat(args))


def _legal(args: JSONObject) -> list[str]:
    return _state(args).legal_moves(_seat(args))


def _at(args: JSONObject) -> JSONObject:
    """The game as it stood after `ply` moves (for stepping through it, or undo
    with ply = moves - 1): {record, private_record, view, ply, plies, notes,
    comment}. With `line`, the position after `ply` moves of that side line
    (plies: the line's length). `notes` are the whole record's, `comment` the
    one at the position shown."""
    ply: JSON = args.get("ply")  # checked by replay / line_position
    line = args.get("line")
    if line is None:
        state, total = replay(args.get("record"), ply)
        whole = _state(args)
        comment = whole.comment(ply)
    else:
        whole = _state(args)
        index = _line_index(whole, line)
        state = whole.line_position(index, ply)
        total = len(whole.lines[index].moves)
        comment = whole.lines[index].comment(ply) if ply else whole.comment(whole.lines[index].ply)
    return {**_answer(_remember(state), _seat(args)), "ply": ply, "plies": total,
            "notes": whole.public(None).notes_view(), "comment": comment}


def _line_index(state: State, line: object) -> int:
    if isinstance(line, bool) or not isinstance(line, int) or not 0 <= line < len(state.lines):
        raise BadRequest(f"this game has no side line {line!r:.20}")
    return line


def _text(args: JSONObject) -> str:
    text = args.get("text", "")
    if not isinstance(text, str):
        raise BadRequest("a comment is text")
    return text


def _annotate(args: JSONObject) -> JSONObject:
    """Set the comment after move `ply` ("" removes it); with `line`, after
    move `ply` (from 1) of that side line."""
    return _answer(_remember(_with_comment(_state(args), args)), _seat(args))


def _with_comment(state: State, item: JSONObject) -> State:
    """`state` with the comment `item` asks for ({ply, text, optional line}), checked."""
    ply: JSON = item.get("ply")  # checked by the state
    line = item.get("line")
    if line is None:
        return state.with_comment(ply, _text(item))
    return state.with_line_comment(_line_index(state, line), ply, _text(item))


_MANY_LIMIT = 1_000  # comments in one annotate_many call: far above a game's moves


def _annotate_many(args: JSONObject) -> JSONObject:
    """Set several comments at once (the analysis turned into comments):
    `comments` is a list of {ply, text, optional line}, each checked as
    `annotate` checks one; all are set, or none (the first bad one is named)."""
    items = args.get("comments")
    if not isinstance(items, list) or not items:
        raise BadRequest("annotate_many needs a list of comments, each {ply, text}")
    if len(items) > _MANY_LIMIT:
        raise BadRequest(f"annotate_many takes at most {_MANY_LIMIT:,} comments at once, not {len(items):,}")
    new = _state(args)
    for number, item in enumerate(items, 1):
        if not isinstance(item, dict):
            raise BadRequest(f"comment {number} of the list is not an object of ply and text")
        try:
            new = _with_comment(new, item)
        except RulesError as exc:
            raise type(exc)(f"comment {number} of the list: {exc}") from None
    return _answer(_remember(new), _seat(args))


def _branch(args: JSONObject) -> JSONObject:
    """Start a side line at `ply` with `move` (for `seat`): the game, and `line`, its index."""
    state = _state(args)
    ply: JSON = args.get("ply")
    move: JSON = args.get("move")
    new = state.with_line(ply, [(move, _seat(args))])
    index = max(i for i, line in enumerate(new.lines) if line.ply == ply and line not in state.lines)
    return {**_answer(_remember(new), _seat(args)), "line": index}


def _extend(args: JSONObject) -> JSONObject:
    """Play `move` in side line `line` after its first `keep` moves (default: all)."""
    state = _state(args)
    index = _line_index(state, args.get("line"))
    keep: JSON = args.get("keep")
    move: JSON = args.get("move")
    return {**_answer(_remember(state.extend_line(index, [(move, _seat(args))], keep)), _seat(args)), "line": index}


def _drop_line(args: JSONObject) -> JSONObject:
    state = _state(args)
    return _answer(_remember(state.without_line(_line_index(state, args.get("line")))), _seat(args))


def _new_id(args: JSONObject) -> JSONObject:
    """The same game under a freshly drawn id ("open the link as a separate
    game"); with `branch` (a move number, the first where it parts from the
    game it came from), the new game records that game's id and that move
    (docs/RECORD.md), so a device holding that game can name the change."""
    state = _state(args)
    branch = args.get("branch")
    if branch is not None and not (isinstance(branch, int) and not isinstance(branch, bool)):
        raise BadRequest("branch is a move number")
    new = state.with_game_id(new_game_id())
    if branch is not None and state.game_id is not None:
        new = new.with_branch(state.game_id, min(branch, state.plies))
    return _answer(_remember(new), _seat(args))


def _record_info(args: JSONObject) -> JSONObject:
    """What a record is, without replaying it: {game, code, version, game_id}
    (naming a saved game before the engine has checked it)."""
    parts = parse_record(args.get("record"))
    game = BY_CODE.get(parts.code)
    if game is None:
        raise BadRequest(f"the record names an unknown game {parts.code[:20]!r}")
    return {"game": game.id, "name": game.name, "code": parts.code, "version": parts.version, "game_id": parts.game_id}


def _preview(args: JSONObject) -> JSON:
    """What a multi-part move would give before it is played (a move built in several steps)."""
    move: JSON = args.get("move")
    return _state(args).preview(move, _seat(args))


def _computer(args: JSONObject) -> JSONObject:
    """A computer level's move for the seat to move (also the Hint button's
    answer, with level "strong"): {move, words}. The seed defaults to the number of
    moves played, so a game with computer seats replays the same way."""
    state = _state(args)
    level = args.get("level", "strong")
    budget = args.get("budget", 1.0)
    if isinstance(budget, bool) or not isinstance(budget, (int, float)) or not 0.01 <= budget <= 10:
        raise BadRequest("a computer's time budget is from 0.01 to 10 seconds")
    seed = args.get("seed", len(state.history))
    move = computer_move(state, _seat(args), level=level, seed=seed, budget=float(budget))
    return {"move": move, "words": state.move_words(move, _seat(args))}


def _solitaire_best(args: JSONObject) -> JSONObject:
    """The best possible final score of a game played alone: {score, exact,
    method} (the game's adapter's `best_possible`)."""
    state = _state(args)
    best = player_for(state.game).best_possible(state)
    if best is None:
        raise BadRequest(f"a best possible score is known only for some games played alone, not for this {state.game.name} game")
    return best


def _commitment(args: JSONObject) -> str:
    """SHA-256 of salt + ":" + pick, as hex: the seal on a secret pick sent by link
    (computed here so every browser, secure context or not, gets the same answer)."""
    salt, pick = args.get("salt"), args.get("pick")
    if not isinstance(salt, str) or not isinstance(pick, str) or not 16 <= len(salt) <= 200 or len(pick) > 200:
        raise BadRequest("a commitment needs a salt (16 to 200 characters) and a pick")
    return commitment(salt, pick)


def _sealable(args: JSONObject) -> tuple[SealedState, int | None, JSON, JSON]:
    state = _state(args)
    if not isinstance(state, SealedState):
        raise BadRequest(f"{state.game.name} has no sealed picks")
    pick: JSON = args.get("pick")  # pick and salt: checked by the state
    salt: JSON = args.get("salt")
    return state, _seat(args), pick, salt


def _seal(args: JSONObject) -> JSONObject:
    """Seal a pick: {record (public: the commitment, never the pick), view,
    keep: {seat, round, pick, salt, commitment}, for the sealer's device only}."""
    state, seat, pick, salt = _sealable(args)
    sealed = state.seal(pick, salt, seat)
    seal = sealed.seals[-1]
    keep = {"seat": seal.seat, "round": seal.round, "pick": pick, "salt": salt, "commitment": seal.commitment}
    return {**_answer(_remember(sealed), seal.seat), "keep": keep}


def _reveal(args: JSONObject) -> JSONObject:
    """Reveal a sealed pick with its salt: {record, view}."""
    state, seat, pick, salt = _sealable(args)
    return _answer(_remember(state.reveal(pick, salt, seat)), seat)


def _compare(args: JSONObject) -> JSONObject:
    """How the record `theirs` (a link) stands to `mine` (the game this device
    holds): {relation, ply, where, mine, theirs, message} (quetgames.compare)."""
    mine: JSON = args.get("mine")  # both checked in full by compare
    theirs: JSON = args.get("theirs")
    seats = args.get("seats")  # the seats this device plays in `mine`, if it knows them
    if seats is not None and not (isinstance(seats, list) and all(isinstance(s, int) and not isinstance(s, bool) for s in seats)):
        raise BadRequest("seats is a list of seat numbers")
    return compare(mine, theirs, seats).to_json()


def _news(args: JSONObject) -> list[str]:
    """What the link `theirs` adds to `mine` (a game it continues), in words: [sentence] (quetgames.compare.news)."""
    mine: JSON = args.get("mine")
    theirs: JSON = args.get("theirs")
    return news(mine, theirs)


def _analyse(args: JSONObject) -> JSONObject:
    """The analysis of the record's every move (quetgames.analyse): {moves, accuracy, ...};
    `budget` seconds a move (0.01 to 10, default 0.45) or exactly `iterations`;
    with neither, the game's own default (its adapter's `analysis_iterations`,
    else the default budget); `span` [start, stop] for a few moves a call
    (progress, Cancel)."""
    from .analysis import analyse

    state = _state(args)
    budget, iterations, seed = args.get("budget"), args.get("iterations"), args.get("seed", 0)
    if budget is not None and (isinstance(budget, bool) or not isinstance(budget, (int, float)) or not 0.01 <= budget <= 10):
        raise BadRequest("an analysis's time budget is from 0.01 to 10 seconds a move")
    return analyse(state, None if budget is None else float(budget), seed, iterations=iterations, span=args.get("span")).to_json()


def _puzzle(args: JSONObject) -> JSONObject:
    """A stored puzzle (an entry of puzzles.json, sent back by the page) and,
    with `move`, that move judged against the stored proof in words; with
    `solution` true, the winning move(s) and forced line in words. The
    puzzle is checked against its record (quetgames.puzzles)."""
    from . import puzzles

    puzzle = args.get("puzzle")
    if not isinstance(puzzle, dict):
        raise BadRequest("the call needs a puzzle")
    if "move" in args and args.get("why") is True:
        return puzzles.why(puzzle, args["move"])
    if "move" in args:
        return puzzles.answer(puzzle, args["move"])  # (answer checks it is a legal move)
    if args.get("solution") is True:
        return puzzles.solution(puzzle)
    return puzzles.position(puzzle)


def _puzzle_of_the_day(args: JSONObject) -> str:
    """The id of the day's puzzle among `ids`, from the ISO `date` alone."""
    from . import puzzles

    ids, date = args.get("ids"), args.get("date")
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids) or not isinstance(date, str) or len(date) > 10:
        raise BadRequest("the puzzle of the day needs ids (a list of text) and a date (YYYY-MM-DD)")
    return puzzles.puzzle_of_the_day(ids, date)


def _mistakes(args: JSONObject) -> JSONObject:
    """The game's proved mistakes as exercises, or a move tried at one of
    them (quetgames.mistakes; see the module docstring for the shapes)."""
    from . import mistakes

    state = _state(args)
    if "move" in args:
        ply: JSON = args.get("ply")  # both checked by try_again
        move: JSON = args["move"]
        return mistakes.try_again(state, ply, move)
    return mistakes.mistakes(state, args.get("analysis"))


def _lesson(args: JSONObject) -> JSON:
    """A lesson, or a move tried on one of its steps, or a step's answer
    (quetgames.lessons); see the module docstring for the shapes."""
    from . import lessons

    game, step = args.get("game"), args.get("step")
    if game is None:
        return lessons.index()
    if not isinstance(game, str):
        raise BadRequest("a lesson is named by its game's id")
    if step is None:
        return lessons.lesson(game)
    if not isinstance(step, str):
        raise BadRequest("a lesson step is named by its id")
    record = args.get("record")  # checked by the lesson's game step, the only one that reads it
    if args.get("answer") is True:
        return lessons.answer(game, step, record)
    if "move" not in args:
        raise BadRequest("a lesson step needs a move to judge, or answer: true")
    return lessons.judge(game, step, args["move"], record)


_CALLS: dict[str, Callable[[JSONObject], JSON]] = {
    "games": _games,
    "new": _new,
    "open": _open,
    "play": _play,
    "view": _view,
    "legal": _legal,
    "preview": _preview,
    "at": _at,
    "annotate": _annotate,
    "annotate_many": _annotate_many,
    "branch": _branch,
    "extend": _extend,
    "drop_line": _drop_line,
    "new_id": _new_id,
    "record_info": _record_info,
    "compare": _compare,
    "news": _news,
    "commitment": _commitment,
    "seal": _seal,
    "reveal": _reveal,
    "computer": _computer,
    "solitaire_best": _solitaire_best,
    "analyse": _analyse,
    "puzzle": _puzzle,
    "puzzle_of_the_day": _puzzle_of_the_day,
    "mistakes": _mistakes,
    "lesson": _lesson,
}


def call(name: str, args_json: str = "{}") -> str:
    """Run one call of the protocol and return its JSON answer; never raises."""
    try:
        handler = _CALLS.get(name)
        if handler is None:
            raise BadRequest(f"there is no call named {name!r:.40}")
        try:
            args = json.loads(args_json)
        except (TypeError, ValueError, RecursionError):
            raise BadRequest("the call's arguments are not valid JSON") from None
        if not isinstance(args, dict):
            raise BadRequest("the call's arguments must be a JSON object")
        return json.dumps({"ok": True, "result": handler(args)}, separators=(",", ":"))
    except RulesError as exc:
        error = {"type": type(exc).__name__, "message": str(exc)}
    except Exception as exc:  # a bug of ours: keep the page alive and say so
        traceback.print_exc()
        error = {"type": "InternalError", "message": f"the game engine hit an unexpected problem ({type(exc).__name__})"}
    return json.dumps({"ok": False, "error": error}, separators=(",", ":"))
