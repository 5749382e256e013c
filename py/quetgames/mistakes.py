"""Practise your mistakes: the proved mistakes of a played game, as exercises.

After a game is analysed, every move marked ? or ?? (a mistake or a
blunder) whose position the analysis proved is a chance to try again: the
move is an exercise when it lowered its mover's proved result (a win given
away, or a shared win): two proofs, the position before it and the one it
left. The position before it is then proved move by move (as a puzzle is,
`puzzles.prove_position`) in the time left, and the moves that keep the
result it had are the solutions, every one of them. Where that is too long
for the time (a position of 256 moves, each a proof several moves deep,
which a slow device may not finish), the
exercise says so (`complete` false), its solution is the proof's own move,
and a move tried is proved alone when it is tried, so the exercise is
offered on any device.

A ? inside one proved result (a lost side that gave up some resistance, a
won side that took a detour) keeps its result and is no exercise: there is
no result to keep but the one every move keeps.

A pick of a joint secret move (both seats choosing a round's numbers at
once) is looked at from the round's start, as its mover knew it (the other
seat's pick of the round, made before or after, is no part of it): it is an
exercise when some pick secured a result whatever the other seat picked,
and the pick played secured less (`puzzles.prove_position`, through the
adapter's `exact_joint`, near a game's end). Its reply is a
pick of the other seat that holds it there.

Pure data: nothing is saved, nothing is fetched, and the same game gives the
same exercises (proofs, not estimates; a proof not found within its time is
left out).
"""

from __future__ import annotations

import time

from .base import State
from .errors import InvalidOptions, RulesError
from .players.search import open_joint
from .puzzles import prove_position, proved_move, proved_result
from .registry import replay_record
from .data import JSON, JSONObject

__all__ = ["mistakes", "try_again", "MARKED", "PROOF_SECONDS"]

MARKED = ("mistake", "blunder")  # the analysis's classes shown as ? and ??
PROOF_SECONDS = 2.0  # the most one position's proof (all its moves) may take
RESULT_WORDS = {1.0: "a win", 0.5: "a shared win", 0.0: "a loss"}


def _words(value: float) -> str:
    return RESULT_WORDS.get(value, f"{value:g} of a win")


def _positions(state: State) -> tuple[list[State], list[tuple[str, int]]]:
    """Every position of the game's record, start first, and each move with its seat."""
    start, moves, _ = replay_record(state.record)
    positions = [start]
    played = []
    for move, seat in moves:
        here = positions[-1]
        seat = here.to_move[0] if seat is None else seat
        played.append((move, seat))
        positions.append(here.play(move, seat))
    return positions, played


def _marked(analysis: JSON, total: int) -> set[int] | None:
    """The plies the analysis marks ? or ?? with proved values (None: no
    analysis given, every ply is looked at). Raises InvalidOptions for an
    analysis that is not one (it may come from a page)."""
    if analysis is None:
        return None
    moves = analysis.get("moves") if isinstance(analysis, dict) else None
    if not isinstance(moves, list):
        raise InvalidOptions("the analysis is the object the analysis gives, with its list of moves")
    plies = set()
    for m in moves:
        if not isinstance(m, dict) or not isinstance(m.get("ply"), int) or not 1 <= m["ply"] <= total:
            raise InvalidOptions("each move of the analysis has its ply, from 1 to the game's moves")
        if m.get("grade") in MARKED and m.get("exact") is True:
            plies.add(m["ply"])
    return plies


def _fell(before: State, move: str, seat: int, deadline: float) -> tuple[float, float] | None:
    """A single mover's `move` at `before`: the mover's proved result before
    it and after it, when the move lowered it (None when it did not, or
    either is not proved by `deadline`). Two proofs, whatever the number of
    moves: this is what makes the move an exercise."""
    best = proved_result(before, seat, deadline)
    if best is None:
        return None
    value = proved_result(before.play(move, seat), seat, deadline)
    return None if value is None or value >= best else (best, value)


def _exercise(before: State, ply: int, move: str, seat: int, seconds: float) -> JSONObject | None:
    """The exercise of `move` played by `seat` at `before` (the game's ply-th
    move, the position as the mover knew it), or None when it is none (not
    proved, or it kept the result). A single mover's move is an exercise
    once the results before and after it are proved (`_fell`); every other
    move is then proved in the time left, for the whole list of the moves
    that keep the result, and where that time is too short (many moves on
    a slow device) `complete` is false: the solutions are the proof's own
    move, and each move tried is proved when it is tried (`try_again`)."""
    joint = open_joint(before)
    if (len(before.to_move) != 1 and not joint) or len(before.legal_moves(seat)) < 2:
        return None
    deadline = time.perf_counter() + seconds
    if joint:
        proof = prove_position(before, seconds, seat)
        if proof is None:
            return None
        values = {m: 1.0 for m in proof["wins"]} | {m: float(o["value"]) for m, o in proof["others"].items()}
        best = max(values.values())
        if values[move] >= best:
            return None
        others = {m: proof["others"][m] for m in before.legal_moves(seat) if values[m] < best}
        solutions = [m for m in before.legal_moves(seat) if values[m] == best]
        complete = True
    else:
        fell = _fell(before, move, seat, deadline)
        if fell is None:
            return None
        best, after = fell
        proof = prove_position(before, max(0.0, deadline - time.perf_counter()), seat)
        complete = proof is not None
        if proof is not None:
            values = {m: 1.0 for m in proof["wins"]} | {m: float(o["value"]) for m, o in proof["others"].items()}
            others = {m: proof["others"][m] for m in before.legal_moves(seat) if values[m] < best}
            solutions = [m for m in before.legal_moves(seat) if values[m] == best]
        else:
            keeps = proved_move(before, deadline)
            if keeps is None:
                return None
            others = {move: {"value": after, "reply": proved_move(before.play(move, seat), deadline)}}
            solutions = [keeps]
        values = {move: after}
    name = before.seat_name(seat)
    if joint:
        other = before.seat_name(1 - seat)
        task = f"{name} to pick: find a number that secures {_words(best)}, whatever {other} picks."
        words = (f"{name} picked {move}, which gave up a {_words(best)[2:]} that a pick could secure: "
                 f"{other}'s {others[move]['reply']} holds it to {_words(values[move])}.")
    else:
        task = f"{name} to move: find a move that keeps {_words(best)}."
        words = f"{before.describe_move(move, seat)}, which turned a proved {_words(best)[2:]} into {_words(values[move])}."
    return {
        "ply": ply, "seat": seat, "seat_name": name, "ply_before": len(before.history), "record": before.record,
        "move": move, "result": best, "result_after": values[move], "joint": joint,
        "solutions": solutions, "complete": complete, "others": others, "task": task, "words": words,
    }


def mistakes(state: State, analysis: JSON = None, seconds: float = PROOF_SECONDS) -> JSONObject:
    """The proved mistakes of `state`'s game as exercises: {game, record,
    exercises: [{ply, seat, seat_name, ply_before, record (the position
    before the move; for a pick of a joint move, its round's start, and
    ply_before its moves), move, result (the mover's proved result there: 1
    won, 0.5 shared), result_after, joint (a pick of a joint move),
    solutions (every move that keeps `result`), complete (false when the
    time allowed proving only the results before and after the move played:
    then solutions holds the proof's one move and others the move played
    alone), others ({move: {value, reply}} for every other move), task,
    words}]},
    in the order of the game. `analysis`: the analysis's JSON (`to_json`);
    when given, only its moves marked ? or ?? with proved values are
    looked at, else every move. Raises InvalidOptions for a bad analysis."""
    if not isinstance(state, State):
        raise InvalidOptions(f"mistakes needs a game state, not {type(state).__name__}")
    positions, played = _positions(state)
    marked = _marked(analysis, len(played))
    exercises = []
    for ply, (move, seat) in enumerate(played, start=1):
        if marked is not None and ply not in marked:
            continue
        # (as the mover knew it: at a joint move the round's start, the other seat's pick no part of it)
        found = _exercise(positions[ply - 1].secret_free(seat), ply, move, seat, seconds)
        if found is not None:
            exercises.append(found)
    return {"game": state.game.id, "record": state.record, "exercises": exercises}


def try_again(state: State, ply: JSON, move: JSON, seconds: float = PROOF_SECONDS) -> JSONObject:
    """A move tried at the exercise of the game's `ply`-th move: {right,
    move, value, reply, words}, from the proof of the position before it.
    Raises RulesError when that move is no exercise or `move` is not legal there."""
    positions, played = _positions(state)
    if isinstance(ply, bool) or not isinstance(ply, int) or not 1 <= ply <= len(played):
        raise InvalidOptions(f"the ply is a move of the game, from 1 to {len(played)}, not {ply!r:.20}")
    seat = played[ply - 1][1]
    before = positions[ply - 1].secret_free(seat)  # (as in `mistakes`)
    if not open_joint(before):
        return _tried(before, ply, played[ply - 1][0], seat, move, seconds)
    found = _exercise(before, ply, played[ply - 1][0], seat, seconds)
    if found is None:
        raise RulesError(f"move {ply} of this game is no proved mistake")
    if not isinstance(move, str) or move not in before.legal_moves(seat):
        raise RulesError(f"{str(move)[:20]!r} is not a legal move in this position")
    name, other_name = before.seat_name(seat), before.seat_name(1 - seat)
    if move in found["solutions"]:
        return {"right": True, "move": move, "value": found["result"], "reply": None,
                "words": f"Right: {name} picks {move}, which keeps {_words(found['result'])} whatever {other_name} picks."}
    other = found["others"][move]
    return {"right": False, "move": move, "value": other["value"], "reply": other["reply"],
            "words": f"Not this one: {name} picks {move}, and {other_name}'s {other['reply']} holds it to {_words(other['value'])}."}


def _tried(before: State, ply: int, played: str, seat: int, move: JSON, seconds: float) -> JSONObject:
    """`try_again` at a single mover's move: the move played must have
    lowered a proved result (`_fell`), and the move tried is proved on its
    own (three proofs, however many moves the position has)."""
    deadline = time.perf_counter() + seconds
    single = len(before.to_move) == 1 and len(before.legal_moves(seat)) >= 2
    fell = _fell(before, played, seat, deadline) if single else None
    if fell is None:
        raise RulesError(f"move {ply} of this game is no proved mistake")
    if not isinstance(move, str) or move not in before.legal_moves(seat):
        raise RulesError(f"{str(move)[:20]!r} is not a legal move in this position")
    best = fell[0]
    after = before.play(move, seat)
    value = proved_result(after, seat, deadline)
    if value is None:
        raise RulesError(f"{move} could not be proved in the time here")
    did = before.describe_move(move, seat)
    if value >= best:
        return {"right": True, "move": move, "value": best, "reply": None,
                "words": f"Right: {did}, which keeps {_words(best)}."}
    reply = None if after.is_over or after.to_move[0] == seat else proved_move(after, deadline)
    return {"right": False, "move": move, "value": value, "reply": reply,
            "words": f"Not this one: {did}, which gives {_words(value)} at best."}
