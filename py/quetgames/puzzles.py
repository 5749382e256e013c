"""Puzzles: real positions where the seat to move has a proved win that only
one move (or a few, listed) keeps, with the forced line that shows why.

Where they come from. Seeded games of the strong player against itself and
against the weaker levels, each opened by a few seeded random choices, for
each setting of `SETTINGS` (each game's own `Game.puzzle_settings`). Every position of those games with two seats, one
seat to move and at least two legal moves is a candidate.

What makes one a puzzle. Every legal move is proved: the position it leaves
is either finished or proved by the game's adapter (its `exact` hook; no
hook, no proof, no puzzle). The moves after which the mover's proved result
is a whole win (1) are the solutions; a candidate is kept when there is at
least one and at most `MAX_SOLUTIONS`, and at least one move does not win
without ending the game at once (a position whose wrong moves all lose on
the spot asks for no more than a look one move ahead).
Every move that does not win is kept too, with the mover's proved result
after it (0 lost, 0.5 a shared win) and the other seat's best answer, so a
page can say why a wrong move is wrong without searching.

The forced line. After the first solution, the loser plays the adapter's
best move (the proof's choice: the longest or the likeliest resistance the
adapter knows), and the winner plays its one winning move, until the game
ends, or the winner has more than one winning move (the result no longer
hangs on one move), or `LINE_PLIES` moves are written.

Difficulty. How often weak players miss the move: `RATER_PLAYERS` players
sampled from a seeded generator (`raters`), each a quick search of the strong
level (1 to 8 iterations) or greedy, with its own share of careless moves
(`noise`, 0 to 1: that share of the time it plays any legal move at random).
A player's miss is worked out, not drawn: noise × (the share of legal moves
that are wrong) + (1 − noise) × (1 if its own choice is wrong, else 0). `miss`
is the players' mean and the puzzle's Elo-like rating is ``800 + 1200 *
miss`` rounded to tens. It says how hard the puzzle is for weak computer
players, not for people, and is stored with its parts.

Everything is reproducible: the games are seeded, the proofs are proofs (a
deadline only decides whether one is found in time, so a much slower
machine may keep fewer), and the raters are seeded.
`check` re-proves a stored puzzle from its record alone.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable, Iterator, Sequence

from .base import State
from .errors import RulesError
from .players import computer_move, player_for
from .players.search import open_joint
from .registry import GAMES, load
from .data import JSONObject, Options

__all__ = ["SETTINGS", "prove_position", "proved_result", "proved_move", "forced_line", "rate", "raters", "rerate", "spread",
           "spread_problems", "find", "make", "check", "check_all", "puzzle_id", "puzzle_of_the_day", "position", "answer",
           "solution", "task", "why"]

MAX_SOLUTIONS = 3  # a position with more winning moves than this is no puzzle
LINE_PLIES = 12  # the longest forced line kept
PROOF_SECONDS = 2.0  # the most one position's proof (all its moves) may take when looking for puzzles
# ... in a game with a `puzzle_share` (hundreds of moves a position): kept
# short, so that the build's re-proof of every puzzle stays short too
WIDE_PROOF_SECONDS = 0.25
REPLIES_CHECKED = 4  # the moves of each stored joint reply that `check` plays out
CHECK_SECONDS = 30.0  # ... when re-proving a stored one: generous, so a busy machine fails no puzzle
RATER_PLAYERS = 40  # sampled weak players that rate a puzzle (`raters`)
RATER_SEARCHES = ("greedy", 1, 2, 4, 8)  # what a sampled player plays: greedy, or strong at that many iterations
LEVELS_AGAINST = ("strong", "greedy", "random")  # strong plays each of these in the source games
OPENING_MOST = 10  # the most random choices a source game opens with

SETTINGS: tuple[tuple[str, Options], ...] = tuple(
    (game_id, dict(options)) for game_id, game in GAMES.items() for options in game.puzzle_settings)


def _one_mover(state: State) -> int | None:
    """The seat to move when the position is a two-seat turn of one seat, else None."""
    to_move = state.to_move
    if state.players != 2 or len(to_move) != 1:
        return None
    return to_move[0]


def _seats(state: State) -> tuple[int, ...]:
    """The seats a puzzle of this position could be set for: the one seat to
    move, or both seats of an open joint move; none otherwise, and none
    while a joint move is half made (the record would hold a secret choice)."""
    if open_joint(state):
        return (0, 1)
    seat = _one_mover(state)
    if seat is None or state.view()["choosing"] is not None:
        return ()
    return (seat,)


def _most(state: State, legal: int) -> int:
    """The most solutions a puzzle with `legal` legal moves may have."""
    share = state.game.puzzle_share
    return MAX_SOLUTIONS if share is None else int(legal * share + 1e-9)


def _wrong(puzzle: JSONObject, legal: Sequence[str]) -> dict[str, JSONObject]:
    """Every wrong move of a stored puzzle with its {value, reply}: from
    `others` (one entry a move), or from `wrong`, the compact form of a game
    with a `puzzle_share`: one entry per value and reply with its moves,
    the first of them, with "rest" true, holding every legal move (of
    `legal`) that no other entry and no solution names."""
    if "wrong" not in puzzle:
        others: dict[str, JSONObject] = puzzle["others"]
        return others
    found = {move: {"value": group["value"], "reply": group["reply"]}
             for group in puzzle["wrong"] if not group.get("rest") for move in group["moves"]}
    rest = [group for group in puzzle["wrong"] if group.get("rest")]
    if rest:
        named = set(found) | set(puzzle["solutions"])
        found |= {move: {"value": rest[0]["value"], "reply": rest[0]["reply"]} for move in legal if move not in named}
    return found


def _grouped(others: dict[str, JSONObject]) -> list[JSONObject]:
    """`others` in the compact form (`_wrong`): one entry per value and
    reply, the largest first and written as the rest, the moves of each
    other entry in the order of the legal moves."""
    groups: dict[tuple[float, str | None], list[str]] = {}
    for move, other in others.items():
        groups.setdefault((other["value"], other["reply"]), []).append(move)
    ordered = sorted(groups.items(), key=lambda item: -len(item[1]))
    return [{"value": value, "reply": reply, **({"rest": True} if n == 0 else {"moves": moves})}
            for n, ((value, reply), moves) in enumerate(ordered)]


def proved_result(state: State, seat: int, deadline: float) -> float | None:
    """`seat`'s proved result from `state` (1 won, 0 lost, 0.5 shared), or
    None when not proved by the deadline."""
    if state.is_over:
        winners = state.winners
        return 1.0 / len(winners) if seat in winners else 0.0
    mover = state.to_move[0]
    rng = random.Random(f"puzzle|{state.moves_record}")
    proof = player_for(state.game).exact(state, mover, rng, None, deadline)
    if proof is None:
        return None
    return proof.values[seat]


def proved_move(state: State, deadline: float) -> str | None:
    """The proof's move for the seat to move (None once over or not proved)."""
    if state.is_over:
        return None
    mover = state.to_move[0]
    rng = random.Random(f"puzzle|{state.moves_record}")
    proof = player_for(state.game).exact(state, mover, rng, None, deadline)
    return None if proof is None else proof.best


def prove_position(state: State, seconds: float = PROOF_SECONDS, seat: int | None = None) -> JSONObject | None:
    """Every legal move of the seat to move, proved: {seat, wins: [moves after
    which the seat has a whole win], others: {move: {value, reply}}}; None
    when the position is not a two-seat single turn or some move is not
    proved within `seconds`.

    An open joint move (both seats choose at once) is proved for `seat`
    through the adapter's `exact_joint`: a move wins when it wins whatever
    the other seat chooses, and `reply` is a choice of the other seat that
    holds the move to its value."""
    deadline = time.perf_counter() + seconds
    if open_joint(state):
        if seat not in (0, 1):
            return None
        joint = player_for(state.game).exact_joint(state, seat, deadline)
        if joint is None:
            return None
        return {"seat": seat, "wins": [m for m, (value, _) in joint.items() if value >= 1.0],
                "others": {m: {"value": value, "reply": reply} for m, (value, reply) in joint.items() if value < 1.0}}
    seat = _one_mover(state)
    if seat is None:
        return None
    wins: list[str] = []
    others: dict[str, JSONObject] = {}
    for move in state.legal_moves(seat):
        after = state.play(move, seat)
        value = proved_result(after, seat, deadline)
        if value is None:
            return None
        if value >= 1.0:
            wins.append(move)
            continue
        reply = None
        if not after.is_over and after.to_move[0] != seat:
            reply = proved_move(after, deadline)
        others[move] = {"value": value, "reply": reply}
    return {"seat": seat, "wins": wins, "others": others}


def _joint_line(state: State, winner: int, move: str, seconds: float,
                only: bool) -> tuple[list[JSONObject], str] | None:
    """`forced_line` of a joint move: each round the winner's pick and the
    other seat's toughest answer to it (the proof's reply), until the game
    ends, the winner has several winning picks or the line is long."""
    line: list[JSONObject] = []
    s = state
    deadline = time.perf_counter() + seconds
    while len(line) < LINE_PLIES:
        if s.is_over:
            return line, "over"
        if not open_joint(s):
            return None  # (a seat with no pick left: not a line the proof covers)
        joint = player_for(s.game).exact_joint(s, winner, deadline)
        if joint is None:
            return None
        wins = [m for m, (value, _) in joint.items() if value >= 1.0]
        if line and len(wins) > 1:
            return line, "several"
        pick = move if not line else wins[0] if wins else None
        if pick is None or pick not in wins:
            return None
        reply = joint[pick][1]
        line.append({"move": pick, "seat": winner, "only": only if len(line) == 0 else True})
        line.append({"move": reply, "seat": 1 - winner, "only": False})
        s = s.play(pick, winner).play(reply, 1 - winner)
    return line, "over" if s.is_over else "long"


def forced_line(state: State, move: str, seconds: float = PROOF_SECONDS,
                only: bool = True, seat: int | None = None) -> tuple[list[JSONObject], str] | None:
    """The line after the winning `move` (played by the seat to move): each
    entry {move, seat, only}, `only` true where the winner had just that one
    winning move (for `move` itself: as the caller says); and why it stops: "over", "several" (the winner has more
    than one winning move there) or "long". None when a step is not proved.
    At an open joint move, `seat` is the winner."""
    if open_joint(state):
        return None if seat is None else _joint_line(state, seat, move, seconds, only)
    winner = state.to_move[0]
    line: list[JSONObject] = [{"move": move, "seat": winner, "only": only}]
    s = state.play(move, winner)
    deadline = time.perf_counter() + seconds
    while len(line) < LINE_PLIES:
        if s.is_over:
            return line, "over"
        seat = s.to_move[0]
        if seat == winner:
            proof = prove_position(s, max(deadline - time.perf_counter(), 0.01))
            if proof is None or not proof["wins"]:
                return None
            if len(proof["wins"]) > 1:
                return line, "several"
            chosen = proof["wins"][0]
        else:
            reply = proved_move(s, deadline)
            if reply is None:
                return None
            chosen = reply
        line.append({"move": chosen, "seat": seat, "only": seat == winner})
        s = s.play(chosen, seat)
    return line, "over" if s.is_over else "long"


def raters(rng: random.Random, players: int = RATER_PLAYERS) -> list[tuple[str | int, float, int]]:
    """`players` weak players drawn from `rng`: each (search, noise, seed), the
    search one of `RATER_SEARCHES` ("greedy", or the strong level's
    iterations), the noise the share of its moves played at random (0 to 1)."""
    return [(rng.choice(RATER_SEARCHES), rng.random(), rng.randrange(2**31)) for _ in range(players)]


def rate(state: State, solutions: Sequence[str], seat: int | None = None,
         rng: random.Random | None = None) -> JSONObject:
    """How often weak players miss (the module's docstring, "Difficulty"):
    the players `raters(rng)` draws (a generator seeded from the position
    and the seat unless one is given), the mean of their misses, and an
    Elo-like rating from it. `seat`: the seat to rate for (the first to
    move unless given)."""
    seat = state.to_move[0] if seat is None else seat
    if rng is None:
        rng = random.Random(f"puzzle raters|{state.moves_record}|{seat}")
    legal = len(state.legal_moves(seat))
    wrong_share = 1 - len(solutions) / legal
    chosen: dict[tuple[str | int, int], bool] = {}  # (search, seed) -> its move misses
    misses = []
    searched = 0
    for search, noise, seed in raters(rng):
        if (search, seed) not in chosen:
            move = (computer_move(state, seat, "greedy", seed=seed) if search == "greedy"
                    else computer_move(state, seat, "strong", seed=seed, iterations=int(search)))
            chosen[(search, seed)] = move not in solutions
        searched += chosen[(search, seed)]
        misses.append(noise * wrong_share + (1 - noise) * chosen[(search, seed)])
    miss = sum(misses) / len(misses)
    return {"players": len(misses), "search_miss": searched, "legal": legal, "miss": round(miss, 3),
            "elo": int(round((800 + 1200 * miss) / 10) * 10)}


def spread(puzzles: Sequence[JSONObject], rating: int = 1200, near: int = 200) -> dict[str, JSONObject]:
    """Each game's ratings at a glance: {game: {puzzles, near (how many rate
    within `near` of `rating`), most (the most puzzles on one rating), at
    (that rating), low, high}}: what the build prints and tests/ hold to."""
    ratings: dict[str, list[int]] = {}
    for p in puzzles:
        ratings.setdefault(p["game"], []).append(p["rating"]["elo"])
    found: dict[str, JSONObject] = {}
    for game, elos in ratings.items():
        at = max(sorted(set(elos)), key=elos.count)
        found[game] = {"puzzles": len(elos), "near": sum(abs(e - rating) <= near for e in elos),
                       "most": elos.count(at), "at": at, "low": min(elos), "high": max(elos)}
    return found


NEAR_RATINGS = (1200, 200, 10)  # each game: at least 10 puzzles within 200 of 1200 (the starting rating)
MOST_ON_ONE_RATING = 1 / 3  # ... and no more than a third of its puzzles on any one rating


def spread_problems(puzzles: Sequence[JSONObject]) -> list[str]:
    """What is wrong with the spread of each game's ratings (`spread`): too
    few near the starting rating, or too many on one rating."""
    rating, near, fewest = NEAR_RATINGS
    problems = []
    for game, s in spread(puzzles, rating, near).items():
        if s["near"] < min(fewest, s["puzzles"]):
            problems.append(f"{game}: {s['near']} puzzles rate within {near} of {rating}, fewer than {fewest}")
        if s["most"] > s["puzzles"] * MOST_ON_ONE_RATING:
            problems.append(f"{game}: {s['most']} of its {s['puzzles']} puzzles rate {s['at']}, over a third")
    return problems


def rerate(data: JSONObject) -> JSONObject:
    """The puzzle file with every puzzle rated again (`rate`) from its record."""
    puzzles = []
    for p in data["puzzles"]:
        state = load(p["record"])
        puzzles.append({**p, "rating": rate(state, p["solutions"], p["seat"])})
    return {**data, "raters": {"players": RATER_PLAYERS, "searches": list(RATER_SEARCHES)}, "puzzles": puzzles}


def puzzle_id(record: str, seat: int | None = None) -> str:
    """A puzzle's id: the record's game code and a short hash of its moves
    (and of the seat, for a joint move, where either seat may be set the puzzle)."""
    digest = hashlib.sha256((record if seat is None else f"{record}|{seat}").encode()).hexdigest()[:8]
    code = record.split(".")[1]
    return f"{code}-{digest}"


def _puzzle(state: State, seconds: float, seat: int) -> JSONObject | None:
    """The stored puzzle of `state` set for `seat`, or None when it is none."""
    if seat not in _seats(state):
        return None
    legal = len(state.legal_moves(seat))
    if legal < 2:
        return None
    proof = prove_position(state, seconds, seat)
    if proof is None or not proof["wins"] or len(proof["wins"]) > _most(state, legal) or not proof["others"]:
        return None
    joint = open_joint(state)
    if state.game.puzzle_share is None and all(
            other["value"] == 0.0 and state.play(move, seat).is_over for move, other in proof["others"].items()):
        return None  # every wrong move loses on the spot: no puzzle, a one-move look
    found = forced_line(state, proof["wins"][0], seconds, only=len(proof["wins"]) == 1, seat=seat)
    if found is None:
        return None
    line, end = found
    record = state.moves_record
    puzzle: JSONObject = {
        "id": puzzle_id(record, seat if joint else None), "game": state.game.id, "record": record, "seat": seat,
        "solutions": proof["wins"], "line": line, "line_end": end,
    }
    if joint:
        puzzle["joint"] = True
    if state.game.puzzle_share is None:
        puzzle["others"] = proof["others"]
    else:
        puzzle["wrong"] = _grouped(proof["others"])
    puzzle["rating"] = rate(state, proof["wins"], seat)
    return puzzle


def _source_games(game_id: str, options: Options, games: int, seed: int, iterations: int) -> Iterator[State]:
    """Every position of `games` seeded games: strong against each of
    `LEVELS_AGAINST` in turn, strong taking either seat, after an opening of
    0 to `OPENING_MOST` random choices (seeded; a forced move is no choice)
    of moves that do not end the game, so that games of a pairing differ."""
    game = GAMES[game_id]
    for g in range(games):
        other = LEVELS_AGAINST[g % len(LEVELS_AGAINST)]
        levels = ("strong", other) if (g // len(LEVELS_AGAINST)) % 2 == 0 else (other, "strong")
        opening = (g * 7) % (OPENING_MOST + 1)  # choices made at random
        rng = random.Random(f"puzzle source|{game_id}|{seed + g}")
        state = game.new(**options)
        while not state.is_over:
            yield state
            seat = state.to_move[0]
            if opening > 0 and len(state.legal_moves(seat)) > 1:
                opening -= 1
                move = _opening_move(state, seat, rng)
            else:
                move = computer_move(state, seat, levels[seat % 2], seed=seed + g, iterations=iterations)
            state = state.play(move, seat)


def _opening_move(state: State, seat: int, rng: random.Random) -> str:
    """A random move that does not end the game (any move when all do)."""
    moves = state.legal_moves(seat)
    going = [m for m in moves if not state.play(m, seat).is_over]
    return rng.choice(going or moves)


def find(game_id: str, options: Options, games: int = 10, seed: int = 0, iterations: int = 30,
         wanted: int | None = None, seconds: float = PROOF_SECONDS,
         progress: Callable[[JSONObject], None] | None = None) -> list[JSONObject]:
    """The puzzles found in the seeded source games of one setting (each
    position once), stopping early once `wanted` are found."""
    found: list[JSONObject] = []
    seen: set[str] = set()
    if GAMES[game_id].puzzle_share is not None:
        seconds = min(seconds, WIDE_PROOF_SECONDS)
    for state in _source_games(game_id, options, games, seed, iterations):
        record = state.moves_record
        if record in seen:
            continue
        seen.add(record)
        for seat in _seats(state):
            puzzle = _puzzle(state, seconds, seat)
            if puzzle is None:
                continue
            puzzle["options"] = options
            found.append(puzzle)
            if progress is not None:
                progress(puzzle)
            if wanted is not None and len(found) >= wanted:
                return found
    return found


def make(settings: Sequence[tuple[str, Options]] = SETTINGS, games: int = 10, seed: int = 0, iterations: int = 30,
         per_setting: int | None = None, progress: Callable[[JSONObject], None] | None = None) -> JSONObject:
    """The whole puzzle file: every setting's puzzles and the run's settings."""
    started = time.perf_counter()
    puzzles: list[JSONObject] = []
    for game_id, options in settings:
        puzzles.extend(find(game_id, options, games, seed, iterations, per_setting, progress=progress))
    counts: dict[str, int] = {}
    for p in puzzles:
        counts[p["game"]] = counts.get(p["game"], 0) + 1
    return {"version": 1, "games_per_setting": games, "seed": seed, "iterations": iterations,
            "per_setting": per_setting, "max_solutions": MAX_SOLUTIONS, "seconds": round(time.perf_counter() - started, 1),
            "counts": counts, "puzzles": puzzles}


# -- checking --------------------------------------------------------------------


def check(puzzle: JSONObject, seconds: float = CHECK_SECONDS) -> list[str]:
    """What is wrong with a stored puzzle, re-proved from its record alone
    (an empty list: it holds). Checks the id, that the solutions are exactly
    the winning moves, that every other move is stored with its proved
    result (and, at a joint move, that its stored reply holds it there),
    and that the forced line is legal and is the proof's line."""
    name = str(puzzle.get("id"))
    try:
        state = load(puzzle["record"])
        wrong = _wrong(puzzle, state.legal_moves(puzzle["seat"]) if state.to_move else [])
    except (RulesError, KeyError, TypeError) as exc:
        return [f"{name}: the record cannot be read: {exc}"]
    problems = []
    seat = puzzle.get("seat")
    joint = puzzle.get("joint", False) is True
    if puzzle["id"] != puzzle_id(puzzle["record"], seat if joint else None):
        problems.append(f"{name}: the id is not the record's")
    if state.game.id != puzzle.get("game") or joint != open_joint(state) or seat not in _seats(state):
        return problems + [f"{name}: the game or the seat to move is not the record's"]
    assert isinstance(seat, int)
    proof = prove_position(state, seconds, seat)
    if proof is None:
        return problems + [f"{name}: not every move could be proved within {seconds:g} s"]
    if sorted(proof["wins"]) != sorted(puzzle["solutions"]):
        problems.append(f"{name}: the winning moves are {proof['wins'][:12]}, the puzzle says {puzzle['solutions'][:12]}")
    if not proof["wins"] or len(proof["wins"]) > _most(state, len(state.legal_moves(seat))):
        problems.append(f"{name}: {len(proof['wins'])} winning moves of {len(state.legal_moves(seat))} is no puzzle")
    if {m: o["value"] for m, o in proof["others"].items()} != {m: o["value"] for m, o in wrong.items()}:
        problems.append(f"{name}: the other moves' results are not the stored ones")
    elif joint:
        # Any reply that holds the move to its value will do, not only the
        # proof's. The first few moves of each stored reply are played out
        # (every one of hundreds would take the build's check most of its time).
        tried: dict[tuple[float, str | None], int] = {}
        for move, other in wrong.items():
            key = (other["value"], other["reply"])
            tried[key] = tried.get(key, 0) + 1
            if tried[key] > REPLIES_CHECKED:
                continue
            try:
                after = state.play(move, seat).play(other["reply"], 1 - seat)
            except RulesError:
                problems.append(f"{name}: the reply {other['reply']} to {move} cannot be played")
                break
            if _joint_value(after, seat, seconds) != other["value"]:
                problems.append(f"{name}: the reply {other['reply']} does not hold {move} to its stored result")
                break
    problems.extend(_line_problems(name, state, puzzle, seat, joint, seconds))
    return problems


def _joint_value(state: State, seat: int, seconds: float) -> float | None:
    """`seat`'s proved result at a finished game or an open joint move (the
    best of its moves' results); None when not proved."""
    if state.is_over:
        winners = state.winners
        return 1.0 / len(winners) if seat in winners else 0.0
    proof = prove_position(state, seconds, seat)
    if proof is None:
        return None
    return 1.0 if proof["wins"] else max(o["value"] for o in proof["others"].values())


def _line_problems(name: str, state: State, puzzle: JSONObject, seat: int, joint: bool, seconds: float) -> list[str]:
    """What is wrong with a puzzle's forced line: legal, the winner's moves
    its only winning ones where it says so, every position along it still
    won for the winner."""
    problems = []
    s = state
    for n, step in enumerate(puzzle["line"]):
        try:
            if step["seat"] == seat:
                at = prove_position(s, seconds, seat)
                if at is None or at["wins"] == []:
                    problems.append(f"{name}: line move {n + 1} is played from a position not proved won")
                    break
                if step["move"] not in at["wins"] or (step["only"] and len(at["wins"]) != 1):
                    problems.append(f"{name}: line move {n + 1} ({step['move']}) is not the winner's only winning move")
            s = s.play(step["move"], step["seat"])
        except RulesError as exc:
            problems.append(f"{name}: line move {n + 1} cannot be played: {exc}")
            break
        if joint and step["seat"] == seat:
            continue  # the round is revealed with the other seat's pick
        won = _joint_value(s, seat, seconds) if joint else proved_result(s, seat, time.perf_counter() + seconds)
        if not s.is_over and won != 1.0:
            problems.append(f"{name}: after line move {n + 1} the win is not proved")
            break
    if puzzle["line_end"] == "over" and not (s.is_over and s.winners == (seat,)):
        problems.append(f"{name}: the line is said to end the game, but it does not end in the winner's win")
    return problems


def check_all(data: JSONObject, seconds: float = CHECK_SECONDS) -> list[str]:
    """Every stored puzzle checked (`check`), and the ids unique."""
    problems: list[str] = []
    ids = [p["id"] for p in data["puzzles"]]
    if len(set(ids)) != len(ids):
        problems.append("two puzzles share an id")
    for puzzle in data["puzzles"]:
        problems.extend(check(puzzle, seconds))
    return problems


# -- for the page ------------------------------------------------------------------


def puzzle_of_the_day(ids: Sequence[str], date: str) -> str:
    """The id of a day's puzzle (`date` an ISO date, "2026-11-25"), chosen
    from the date alone: the same for everyone, whatever else they played."""
    if not ids:
        raise RulesError("there are no puzzles to choose from")
    return ids[int(hashlib.sha256(f"puzzle of {date}".encode()).hexdigest(), 16) % len(ids)]


def _checked(puzzle: JSONObject) -> State:
    """The puzzle's position, after checking that the stored puzzle (which
    may come from anywhere) is shaped as `make` writes it and agrees with
    its record: its seat is to move, its solutions and wrong moves are
    exactly the legal moves, and the stored replies and line are legal.
    (The proof itself is checked by `check`, at build time.)"""
    if not isinstance(puzzle, dict):
        raise RulesError("a puzzle is an object")
    try:
        state = load(puzzle["record"])
        seat, solutions, line = puzzle["seat"], puzzle["solutions"], puzzle["line"]
        joint = puzzle.get("joint", False) is True
        if joint != open_joint(state):
            raise RulesError("the puzzle's position is not the joint move it says")
        legal = state.legal_moves(seat) if state.to_move == (seat,) or joint and seat in (0, 1) else None
        others = _wrong(puzzle, legal or [])
        if legal is None or sorted([*solutions, *others]) != sorted(legal) or not solutions:
            raise RulesError("the puzzle's moves are not its position's legal moves")
        for move, other in others.items():
            after = state.play(move, seat)
            if other["reply"] is not None:
                after.play(other["reply"], 1 - seat if joint else after.to_move[0])
        s = state
        for step in line:
            s = s.play(step["move"], step["seat"])
    except (KeyError, TypeError, AttributeError, IndexError):
        raise RulesError("that puzzle is not written as the puzzle file writes them") from None
    return state


def position(puzzle: JSONObject) -> JSONObject:
    """What a page shows of a puzzle before any move: the position's view
    and text board, the question in words, and every legal move in words.
    At a joint move the view is the puzzle seat's own (its legal moves;
    nothing of the other seat's choice, which is not made yet)."""
    state = _checked(puzzle)
    seat = puzzle["seat"]
    name = state.seat_name(seat)
    legal = state.legal_moves(seat)
    if open_joint(state):
        other = state.seat_name(1 - seat)
        question = (f"{name} to pick, with {other} picking at the same time unseen; {name} can force a win: "
                    f"{task(len(puzzle['solutions']), len(legal), 'pick', f' whatever {other} picks')}.")
        moves = [{"move": m, "words": f"{name} picks {m}"} for m in legal]
    else:
        # (a move built among hundreds, such as a whole ring of signs, is named as the game's status names it)
        who = state.view()["status"] if state.game.puzzle_share is not None else f"{name} to move"
        question = f"{who} can force a win: {task(len(puzzle['solutions']), len(legal))}.{_to_come(state, puzzle)}"
        moves = [{"move": m, "words": state.describe_move(m, seat)} for m in legal]
    return {
        "id": puzzle["id"], "game": state.game.id, "game_name": state.game.name, "inventor": state.game.inventor,
        "record": state.record, "seat": seat, "joint": open_joint(state),
        "view": state.view(seat) if open_joint(state) else state.view(),
        "board": state.text_board(), "question": question, "moves": moves,
        "rating": puzzle["rating"]["elo"],
        # where a board builds a move before playing it (a ring of signs), it starts from
        # this wrong move, so that what it shows first is never already the answer
        "start": next((m for m in legal if m not in puzzle["solutions"]), None),
    }


def task(solutions: int, legal: int, move: str = "move", whatever: str = "") -> str:
    """What every puzzle asks, the same words wherever a puzzle is described
    (the page, the embed's poster, the home page):

    >>> task(2, 16)
    'find a move that keeps the win (2 of 16 moves do)'
    >>> task(1, 5, "pick")
    'find a pick that keeps the win (1 of 5 picks does)'
    """
    return f"find a {move} that keeps the win{whatever} ({solutions} of {legal} {move}s {'does' if solutions == 1 else 'do'})"


def _to_come(state: State, puzzle: JSONObject) -> str:
    """In a game whose moves are built among hundreds (a ring of signs):
    the turns still to come after this one and whose they are, as the game's
    own status says them (the same whatever is played: turn order is data).
    Elsewhere nothing: the board shows what follows."""
    if state.game.puzzle_share is None:
        return ""
    s = state.play(puzzle["solutions"][0], puzzle["seat"])
    turns: list[str] = []
    while not s.is_over and len(turns) < 6:
        turns.append(s.view()["status"])
        s = s.play(s.legal_moves(s.to_move[0])[0], s.to_move[0])
    if not turns:
        return " This is the game's last move."
    return f" After it: {'; then '.join(turns)}; then the game ends."


def answer(puzzle: JSONObject, move: str) -> JSONObject:
    """A move tried on a puzzle, judged against the stored proof, in words:
    {right, move, value, reply, words, view}. Right: the defender's stored reply.
    Wrong: the mover's proved result after it and the other seat's answer
    (at a joint move: the other seat's pick that beats it, or holds it to a
    shared win). `view`: the public view after the move and that reply, for the board."""
    state = _checked(puzzle)
    seat = puzzle["seat"]
    if not isinstance(move, str) or move not in state.legal_moves(seat):
        raise RulesError(f"{str(move)[:20]!r} is not a legal move in this puzzle")
    if open_joint(state):
        return _joint_answer(state, puzzle, seat, move)
    after = state.play(move, seat)
    did = state.describe_move(move, seat)
    winner = state.seat_name(seat)
    if move in puzzle["solutions"]:
        line = puzzle["line"]
        reply = line[1]["move"] if move == line[0]["move"] and len(line) > 1 and line[1]["seat"] != seat else None
        if after.is_over:
            words = f"Right: {did}, and {winner} wins."
        elif reply is not None:
            # (a reply that ends the game: the end is said, not a win still to force)
            replied = after.play(reply, line[1]["seat"])
            ending = f"{winner} wins" if replied.is_over else f"{winner} can still force the win"
            words = f"Right: {did}. {after.describe_move(reply, line[1]['seat'])}, and {ending}."
        else:
            words = f"Right: {did}, and {winner} can force the win from here."
        shown = after.play(reply, line[1]["seat"]) if reply is not None else after
        return {"right": True, "move": move, "value": 1.0, "reply": reply, "words": words, "view": shown.view()}
    other = _wrong(puzzle, state.legal_moves(seat))[move]
    value, reply = other["value"], other["reply"]
    outcome = "can force the win" if value == 0.0 else "holds you to a shared win at best"
    if after.is_over:
        words = f"Not this one: {did}, and {after.view()['status']}"
    elif reply is not None:
        answerer = after.seat_name(after.to_move[0])
        words = (f"Not this one: {did}. In answer, {after.describe_move(reply, after.to_move[0])}, "
                 f"and {answerer} {outcome}.")
    else:
        words = f"Not this one: {did}, and {winner} can no longer force the win."
    shown = after.play(reply, after.to_move[0]) if reply is not None and not after.is_over else after
    return {"right": False, "move": move, "value": value, "reply": reply, "words": words, "view": shown.view()}


def _joint_answer(state: State, puzzle: JSONObject, seat: int, move: str) -> JSONObject:
    """`answer` at a joint move: the pick played with the other seat's stored
    pick (for a solution, the line's toughest reply; for a wrong pick, one
    that beats it), the round revealed, in words."""
    name, other = state.seat_name(seat), state.seat_name(1 - seat)
    if move in puzzle["solutions"]:
        line = puzzle["line"]
        if move == line[0]["move"]:
            reply = line[1]["move"]
        else:  # another winning pick: the first legal pick of the other seat shows the round
            reply = state.legal_moves(1 - seat)[0]
        value = 1.0
    else:
        wrong = _wrong(puzzle, state.legal_moves(seat))[move]
        reply, value = wrong["reply"], wrong["value"]
    after = state.play(move, seat)
    shown = after.play(reply, 1 - seat)
    round_words = after.describe_move(reply, 1 - seat)
    if value >= 1.0:
        ending = f"{name} wins." if shown.is_over else f"{name} can still force the win, whatever {other} picks."
        words = f"Right: {name} picks {move}, and wins whatever {other} picks. For one: {round_words}, and {ending}"
    else:
        outcome = (shown.view()["status"] + "." if shown.is_over
                   else f"{other} can force the win." if value == 0.0 else f"{other} can hold {name} to a shared win.")
        verb = "beats it" if value == 0.0 else "holds it to a shared win"
        words = f"Not this one: had {name} picked {move}, {other}'s {reply} {verb}. {round_words}, and {outcome}"
    return {"right": value >= 1.0, "move": move, "value": value, "reply": reply, "words": words, "view": shown.view()}


def solution(puzzle: JSONObject) -> JSONObject:
    """The winning move(s) and the forced line, in words."""
    state = _checked(puzzle)
    steps = []
    s = state
    for step in puzzle["line"]:
        words = s.describe_move(step["move"], step["seat"])
        if open_joint(s):  # the first pick of a round is secret until the other's comes
            words = f"{s.seat_name(step['seat'])} picks {step['move']}"
        if step["seat"] == puzzle["seat"] and step["only"]:
            words += " (the only winning move)"
        steps.append(words)
        s = s.play(step["move"], step["seat"])
    end = {"over": s.view()["status"] if s.is_over else "",
           "several": f"Now {state.seat_name(puzzle['seat'])} has more than one winning move.",
           "long": "And so on: the win is proved to the end of the game."}.get(puzzle["line_end"], "")
    return {"solutions": puzzle["solutions"], "line": steps, "end": end}


WHY_SECONDS = 5.0  # the most the proof of a wrong move's line may take on the page


def why(puzzle: JSONObject, move: str, seconds: float = WHY_SECONDS) -> JSONObject:
    """Why a wrong `move` is wrong, as a line to play on the board step by
    step: {move, steps: [{seat, move, words, view}], end}. The first step is
    the move, the second the stored reply; then, where the reply's seat now
    has a proved win, the line the proof gives from there (as `forced_line`:
    the puzzle's seat resists as the proof does, the other seat plays its
    only winning move), until the game ends, the winner has several winning
    moves, or the line is long. `end` says why it stops. At a joint move the
    round (the pick and the stored pick that beats it) is the whole line."""
    state = _checked(puzzle)
    seat = puzzle["seat"]
    if not isinstance(move, str) or move not in state.legal_moves(seat):
        raise RulesError(f"{str(move)[:20]!r} is not a legal move in this puzzle")
    if move in puzzle["solutions"]:
        raise RulesError(f"{move} keeps the win: it needs no line to show why it is wrong")
    other = _wrong(puzzle, state.legal_moves(seat))[move]
    joint = open_joint(state)
    plays: list[tuple[int, str]] = [(seat, move)]
    after = state.play(move, seat)
    end = "over"
    if joint:
        plays.append((1 - seat, other["reply"]))
        end = "over" if after.play(other["reply"], 1 - seat).is_over else "round"
    elif other["reply"] is not None and not after.is_over:
        found = forced_line(after, other["reply"], seconds, only=False) if other["value"] == 0.0 else None
        if found is None:  # (a shared win, or not proved in time: the reply alone)
            plays.append((after.to_move[0], other["reply"]))
            end = "reply"
        else:
            line, end = found
            plays.extend((step["seat"], step["move"]) for step in line)
    steps = []
    s = state
    for who, played in plays:
        words = (f"{s.seat_name(who)} picks {played}" if open_joint(s) and who == seat
                 else s.describe_move(played, who))
        s = s.play(played, who)
        steps.append({"seat": who, "move": played, "words": words, "view": s.view()})
    winner = state.seat_name(1 - seat)
    end_words = {"over": s.view()["status"] if s.is_over else "",
                 "several": f"Now {winner} has more than one winning move: the win is certain.",
                 "long": "And so on: the win is proved to the end of the game.",
                 "reply": f"{winner} holds {state.seat_name(seat)} to a shared win at best from here."
                 if other["value"] > 0 else f"{winner} can force the win from here.",
                 "round": f"{winner} can force the win from here." if other["value"] == 0.0
                 else f"{winner} can hold {state.seat_name(seat)} to a shared win."}[end]
    return {"move": move, "steps": steps, "end": end_words}

