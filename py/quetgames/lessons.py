"""Lessons: learn each game by playing it, one small position and one task a step.

A lesson is data (`LESSONS`, one `Lesson` per game, every one in the same
shape). A step is a position, made by the engine from options and moves, the
seat the learner plays, a task in one sentence, and a `check` naming how the
engine decides which moves pass:

- ``legal``: every legal move passes (the step teaches where a move may go;
  a refused move is told the engine's own reason).
- ``words``: the moves whose description in the engine's words
  (`State.describe_move`) holds every one of `words` ("the count above it").
- ``gain``: the moves that raise the mover's own score the most at once
  (score after the move minus score before; a knock-out is a loss of 1).
- ``proved``: the moves that keep the best result the engine can prove for
  the mover, searched to the end of the game (`puzzles.prove_position`: a
  game's `exact` hook, or a position where every move ends the game).
- ``play``: the last step of every lesson, a short real game on a small
  board against the computer at its easiest level, ``random``.

Every step but ``play`` states its answer: `passes` names each passing move
with the reason in a line (``legal`` may instead give one `reason` for every
legal move). `check_all` re-derives every answer from the engine and raises
`LessonError`, naming the step, when a stated answer is no longer what the
engine says; the build runs it (build.py) and the tests run it
(tests/test_lessons.py). The rule sections a step `teaches` are the
bold-labelled paragraphs of the game's rules text (`rule_sections`); every
section but those in `NOT_RULES` must be taught by some step.

For the page (through the bridge's ``lesson`` call): `lessons` / `lesson`
describe the steps (task, position record, the view for the learner's seat),
`judge` answers a move in words (right: the engine's words for the move and
the reason; refused: the engine's reason; wrong: what the move leads to),
`answer` shows the passing moves, and a ``play`` step's moves are played
against the computer by `judge` too. docs/LEARN.md shows how a step is written.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from .base import State, counted
from .data import JSON, JSONObject
from .errors import RulesError
from .players import computer_move
from .puzzles import prove_position
from .registry import GAMES, load

__all__ = ["Step", "Lesson", "LESSONS", "LessonError", "NOT_RULES", "CHECKS", "rule_sections", "lessons", "lesson",
           "index", "position", "passing", "judge", "answer", "problems", "check_all"]

CHECKS = ("legal", "words", "gain", "proved", "play")
# Bold-labelled paragraphs of a rules text that are no rules of play: a worked
# example, the setup choices (docs/RULES.md adds them), how moves are written
# down, and sealed picks, which only a game played by link between two
# devices uses (a lesson is played at one screen).
NOT_RULES = ("Example", "Settings", "Notation", "Playing by link: sealed picks")
MIN_STEPS, MAX_STEPS = 4, 8
PROOF_SECONDS = 5.0  # the most a `proved` step's proof may take (ours take a few milliseconds)
PLAY_LEVEL = "random"  # the computer of a lesson's game: the easiest level
PLAY_MOST = 40  # a lesson's game is short: seeded random games of its options end within this many moves
_SECTION = re.compile(r"^\*\*(.+?)\.\*\*", re.M)
_ID = re.compile(r"[a-z][a-z0-9-]{0,39}")
_OUTCOME = {1.0: "a win", 0.5: "a shared win", 0.0: "a loss"}

Moves = tuple[str | tuple[str, int], ...]


class LessonError(RulesError):
    """A lesson step that does not hold (its position, or its stated answer
    against the engine), or a request naming no lesson step."""


@dataclass(frozen=True)
class Step:
    """One step of a lesson: a position (`options` and `moves`, each move a
    notation or a (notation, seat) pair), the learner's `seat` (None: the
    one seat to move), the `task` in a sentence, the rule sections it
    `teaches`, and how its answer is checked (`check`, see the module)."""

    id: str
    teaches: tuple[str, ...]
    task: str
    check: str
    options: Mapping[str, JSON]
    moves: Moves = ()
    seat: int | None = None
    passes: Mapping[str, str] = field(default_factory=dict)  # each passing move and why it passes
    reason: str = ""  # check "legal" without `passes`: why any legal move passes
    words: tuple[str, ...] = ()  # check "words": what the engine's words for a passing move hold
    hint: str = ""  # told after a legal move that does not pass


@dataclass(frozen=True)
class Lesson:
    game: str
    steps: tuple[Step, ...]

    def step(self, step_id: object) -> Step:
        for step in self.steps:
            if step.id == step_id:
                return step
        known = ", ".join(s.id for s in self.steps)
        raise LessonError(f"the {GAMES[self.game].name} lesson has no step {step_id!r:.40}; its steps are {known}")


# -- the lessons ---------------------------------------------------------------------

_CC = {"size": 5, "max_rounds": 2}
_CC_SPIRAL = ("a2", "a3", "a4", "a5", "b5", "b4", "b3", "b2", "b1", "c1", "d1", "e1", "e2", "e3", "e4", "e5",
              "d5", "c5", "c4", "c3", "d3")
_EN = {"size": 4}
_EN_CORNER = ("b2=0", "c2=1", "d2=1", "b3=1", "c3=1", "d3=2", "b4=1")
_MU = {"players": 2, "k": 3}
_NC = {"starts": (6, 4), "length": 5, "max_pick": 100}
_PT = {"players": 2, "rays": 4, "k": 2}
_PT_CENTRE = ("1@1", "2@2", "4@3", "3@4")

LESSONS: dict[str, Lesson] = {lesson.game: lesson for lesson in (
    Lesson("convoluted-coprimality", (
        Step("the-2", ("Players and board", "The path"),
             "You are Player 1: write the 2. It goes in an empty square directly beside the 1.",
             "legal", _CC, passes={
                 "b1": "b1 is directly right of the 1, so the path goes on from there.",
                 "a2": "a2 is directly below the 1, so the path goes on from there."}),
        Step("inside", ("Where a number may go", "Blocks and turns"),
             "You are Player 1: write the 8 beside the 7; a square inside the grid must touch two numbers.",
             "legal", _CC, ("b1", "c1", "d1", "e1", "e2", "d2"), passes={
                 "c2": "c2 is inside the grid but touches two numbers, the 3 and the 7. You write the whole "
                       "block 8 to 11 (it ends at the prime 11), one number a move."}),
        Step("knocked-out", ("Knocked out", "Blocks and turns"),
             "You are Player 2, writing the block 6 and 7: write the 6 where you stay in the game.",
             "gain", {"size": 4}, ("b1", "c1", "d1", "d2"), passes={
                 "d3": "d3 touches only the 5, and 6 and 5 share no factor above 1, so you stay in."},
             hint="A number beside another that shares a factor with it knocks its writer out."),
        Step("trap", ("Blocks and turns", "Knocked out"),
             "You are Player 1: write the 11, the last number of your block, where Player 2 will be knocked out in the end.",
             "proved", _CC, ("b1", "c1", "d1", "e1", "e2", "e3", "e4", "e5", "d5"), passes={
                 "c5": "From c5 the path must run round the edge: Player 2 writes 12 and 13 at b5 and a5, "
                       "you write 14 to 17 up to b2, and Player 2's 18 then has only b3, beside the 15."}),
        Step("wipe", ("A stuck path",),
             "You are Player 1: write the 23 where the 24 has nowhere to go, so the grid is wiped.",
             "words", _CC, _CC_SPIRAL, words=("grid is wiped",), passes={
                 "d4": "Every square beside d4 is full. On the fresh grid the lowest-numbered player "
                       "still in writes its 2."}),
        Step("last-grid", ("A stuck path", "End"),
             "You are Player 1. On the last grid a stuck path ends the game and the survivors share the "
             "win: write the 23 so that you win outright.",
             "proved", {"size": 5, "max_rounds": 1}, _CC_SPIRAL, passes={
                 "d2": "At d2 the path goes on, and Player 2 is the one who runs out of safe squares."},
             hint="A share of the win is less than the win."),
        Step("game", ("End",), "You are Player 1: play a short game on a 5 × 5 grid against the computer, and be the last player left.",
             "play", {"size": 5, "max_rounds": 2}),
    )),
    Lesson("enumeration", (
        Step("first", ("The grid", "Filling a square"),
             "You are Player 1: fill the first square. Only b2 has numbers both above it and left of it.",
             "legal", _EN, passes={
                 "b2=0": "Above b2 is the 2 of column b, which shares the factor 2 with row number 2; left of "
                         "it is the 2 of row 2, which shares 2 with column number 2: both counts are 0."}),
        Step("above", ("Filling a square",),
             "You are Player 2: fill f3 with its count above, how many of the numbers above f3 share no "
             "factor above 1 with row number 3.",
             "words", {"size": 6}, ("b2=0", "c2=1", "d2=1", "e2=3", "f2=2", "b3=1", "c3=1", "d3=2", "e3=1",
                                    "b4=1", "c4=3", "d4=2", "b5=3"),
             words=("at f3", "(the count above it)"), passes={
                 "f3=1": "Above f3 stand 6 and 2: 3 shares the factor 3 with 6 but none with 2, so the count "
                         "above is 1."},
             hint="The count above looks up the square's column and compares with its row number."),
        Step("corner-low", ("Turns", 'Goal "corner", two players'),
             "You are Player 2 and want grid 1's lower-right number low: fill c4 so that Player 1 cannot "
             "make it high.",
             "proved", _EN, _EN_CORNER, passes={
                 "c4=2": "With 2 in c4 both of d4's counts are 1, so grid 1's corner is 1; with 3 there "
                         "Player 1 could write 2."}),
        Step("corner-high", ("Turns", 'Goal "corner", two players'),
             "Grid 2: the roles have swapped, and you, Player 2, now want the lower-right number high. "
             "Fill d4.",
             "gain", _EN, (*_EN_CORNER, "c4=2", "d4=1", "b2=0", "c2=1", "d2=1", "b3=1", "c3=1", "d3=3", "b4=0",
                           "c4=3"), passes={
                 "d4=2": "2 is the higher of d4's two counts, and it is your score."}),
        Step("parity", ('Goal "parity", two players',),
             "Player 1 collects odd numbers and Player 2 even ones: as Player 1, fill a square with an odd "
             "number.",
             "gain", {"size": 4, "goal": "parity"}, ("b2=0", "c2=1"), passes={
                 "d2=1": "1 is odd: a point for you.", "b3=1": "1 is odd: a point for you."},
             hint="0 is even, so it counts for Player 2."),
        Step("alone", ("Solitaire",),
             "You play alone: fill the last square, the lower-right one, with the highest number it may take.",
             "gain", {"players": 1, "size": 4}, ("b2=0", "c2=1", "d2=1", "b3=1", "c3=1", "d3=2", "b4=1",
                                                 "c4=3"), passes={
                 "d4=2": "2 is the larger of d4's two counts, and alone you score the lower-right number."}),
        Step("game", ("Turns", 'Goal "corner", two players'),
             "You are Player 1: play a short match of two 4 × 4 grids against the computer, and get the higher lower-right number.",
             "play", {"size": 4}),
    )),
    Lesson("multiplications", (
        Step("mark", ("Players and board", "Part one: the x's"),
             "You are Player 2: mark an x in a row and a column that hold no x yet.",
             "legal", _MU, ("c1", "d2", "b4"),
             reason="It shares no row and no column with an earlier x."),
        Step("last-x", ("Part one: the x's", "Part two: the numbers"),
             "You are Player 1: mark the last x. One row and one column are still free.",
             "legal", _MU, ("a5", "d2", "b4", "c1", "e3", "f6"), passes={
                 "g7": "Row 7 and column g were the only free ones. That ends part one; the 1 comes "
                       "for free, and the numbering goes on from it."}),
        Step("most", ("Part two: the numbers",),
             "You are Player 1: write the 2 where it scores the most, rows apart times columns apart from the 1.",
             "gain", _MU, ("a5", "d2", "b4", "c1", "e3", "f6", "g7"), passes={
                 "g7": "No other x is as far from the 1 at a5 in both directions at once: 2 × 6 = 12, "
                       "the most on offer."}),
        Step("long-run", ("Part two: the numbers", "End"),
             "You are Player 2, behind 3 to 7: write the 5 so that you still win when every x is numbered.",
             "proved", _MU, ("b7", "c1", "f3", "d4", "g5", "a2", "e6", "b7", "e6", "d4"), passes={
                 "f3": "f3 scores only 2 now, but it leaves Player 1 the short hop to g5 and you the long "
                       "ones: the most points now would lose."},
             hint="The most points now is not always the most points at the end."),
        Step("game", ("End",), "You are Player 1: play a short game on a 7 × 7 grid against the computer, and score the most.",
             "play", _MU),
    )),
    Lesson("nonconformity", (
        Step("pick", ("Players and starts", "A round"),
             "You are Player 1, and your start is 6: pick your next number, one that shares a prime factor with 6.",
             "legal", _NC, (("8", 1),), seat=0,
             reason="It shares the prime 2 or 3 with 6 and is not already in your sequence; Player 2's "
                    "number, chosen in secret, is shown only now."),
        Step("score", ("Scoring",),
             "You are Player 1. This step starts from its own position: in round 1 you picked 10 and "
             "Player 2 picked 8, and Player 2 has chosen for round 2 already. Pick a number that scores: strictly between the smallest and "
             "largest of your opponent's terms, and none of them.",
             "gain", _NC, (("10", 0), ("8", 1), ("12", 1)), seat=0, passes={
                 "5": "Your opponent's terms are 4 and 8, and 5 lies between them and shares the prime 5 "
                      "with your 10."},
             hint="Only a number strictly inside your opponent's earlier terms, and equal to none, scores."),
        Step("sitting-out", ("Sitting out",),
             "You are Player 1. Player 2 started with 53, a prime above half of 100, and can never pick: "
             "pick your number.",
             "legal", {**_NC, "starts": (6, 53)}, seat=0,
             reason="Player 2 sits out, so your number is revealed at once."),
        Step("game", ("End", "A round", "Scoring"),
             "You are Player 1: play a short game of four rounds against the computer, and score more points.",
             "play", _NC),
    )),
    Lesson("prime-target", (
        Step("centre", ("Players and target", "Part one: the centre"),
             "You are Player 2: write a number into the centre, one of 1 to 4 not there yet, in an empty wedge.",
             "legal", _PT, ("1@1",),
             reason="The centre takes each of 1 to 4 once, in any empty wedge."),
        Step("count", ("Part two: the rings", "Scoring a ring"),
             "You are Player 2: complete ring 2 with the best score. Each wedge takes the sum or the "
             "difference of the two numbers beneath it.",
             "gain", _PT, (*_PT_CENTRE, "----"), seat=1, passes={
                 "++++": "Every sum is 3: four primes, and the same prime counts every time, so 4 points."}),
        Step("lone-prime", ("Scoring a ring",),
             "You are Player 2: complete ring 2 with the best score. A ring with exactly one prime scores that prime's value.",
             "gain", _PT, (*_PT_CENTRE, "++++"), seat=1, passes={
                 "+-+-": "9, 1, 11, 1 holds one prime, 11, so it scores 11: more than any count of primes."}),
        Step("last-ring", ("End", "Scoring a ring"),
             "You are Player 2, trailing 0 to 3, and this is the last ring: complete it so that you win.",
             "proved", _PT, (*_PT_CENTRE, "+++-", "+-+-", "+-+-"), seat=1, passes={
                 "----": "Every difference is 2: four primes, 4 points, and 4 beats 3."}),
        Step("game", ("End",), "You are Player 1: play a short game on a target of four wedges against the computer, and score the most.",
             "play", _PT),
    )),
)}


# -- rule sections ---------------------------------------------------------------------


def rule_sections(game_id: str) -> list[str]:
    """The rule sections of a game's rules text: the labels of its
    bold-labelled paragraphs ("**The path.** ..." gives "The path"), in order,
    without those of `NOT_RULES`."""
    return [label for label in _SECTION.findall(GAMES[game_id].rules) if label not in NOT_RULES]


# -- positions and answers ----------------------------------------------------------------


def _lesson(game_id: object, data: Mapping[str, Lesson] | None = None) -> Lesson:
    found = (LESSONS if data is None else data).get(game_id) if isinstance(game_id, str) else None
    if found is None:
        raise LessonError(f"there is no lesson for {game_id!r:.40}; the lessons are {', '.join(LESSONS)}")
    return found


def position(game_id: str, step: Step) -> tuple[State, int]:
    """A step's position and the learner's seat, made by the engine."""
    state = GAMES[game_id].new(**step.options)
    for item in step.moves:
        move, seat = (item, None) if isinstance(item, str) else item
        state = state.play(move, seat)
    if step.check == "play":
        return state.with_seats(kinds=["human"] + [PLAY_LEVEL] * (state.players - 1)), 0
    seat = step.seat if step.seat is not None else state.check_seat(None)
    return state, seat


def _gain(state: State, move: str, seat: int) -> int:
    return state.play(move, seat).scores[seat] - state.scores[seat]


def passing(game_id: str, step: Step) -> tuple[State, int, list[str], JSONObject | None]:
    """The step's position, seat and the moves that pass, derived from the
    engine as the step's check says (never from the step's own list), with
    the proof for a `proved` step."""
    state, seat = position(game_id, step)
    legal = state.legal_moves(seat)
    proof = None
    if step.check == "legal":
        found = legal
    elif step.check == "words":
        found = [m for m in legal if all(w in state.describe_move(m, seat) for w in step.words)]
    elif step.check == "gain":
        gains = {m: _gain(state, m, seat) for m in legal}
        found = [m for m in legal if gains[m] == max(gains.values())]
    elif step.check == "proved":
        proof = prove_position(state, PROOF_SECONDS)
        if proof is None or proof["seat"] != seat:
            raise LessonError(f"{game_id} step {step.id!r}: the engine cannot prove every move of this position")
        values = _values(proof)
        found = [m for m in legal if values[m] == max(values.values())]
    else:
        found = []
    return state, seat, found, proof


def _values(proof: JSONObject) -> dict[str, float]:
    values: dict[str, float] = {m: 1.0 for m in proof["wins"]}
    values.update({m: float(o["value"]) for m, o in proof["others"].items()})
    return values


def _named(state: State, move: str, seat: int) -> str:
    """A few words for `move` (the moves list's), or the move as written
    where it is not one entry of the list (a pick kept secret until its
    round is revealed together with the other seat's)."""
    after = state.play(move, seat)
    return state.move_words(move, seat) if len(after.history) == len(state.history) + 1 else move


def _why(step: Step, move: str) -> str:
    return step.passes.get(move) or step.reason


def _sentence(text: str) -> str:
    """The engine's words as a sentence: a full stop at the end (the first
    letter is left as it is: "d3 is not next to 5")."""
    text = text.strip()
    return text + ("" if not text or text.endswith((".", "!", "?")) else ".")


# -- for the page ------------------------------------------------------------------------


def lesson(game_id: str) -> JSONObject:
    """One game's lesson for the page: each step with its task, the rule
    sections it teaches, its check, the learner's seat, the position's
    public record and the engine's view of it for that seat."""
    found = _lesson(game_id)
    game = GAMES[found.game]
    steps = []
    for number, step in enumerate(found.steps, 1):
        state, seat = position(found.game, step)
        steps.append({
            "id": step.id, "number": number, "task": step.task, "teaches": list(step.teaches),
            "check": step.check, "seat": seat, "seat_name": state.seat_name(seat),
            "options": {k: list(v) if isinstance(v, tuple) else v for k, v in state.options.items()},
            "record": state.public_record, "view": state.view(seat),
            "computer": PLAY_LEVEL if step.check == "play" else None,
        })
    return {"game": game.id, "name": game.name, "inventor": game.inventor,
            "sections": rule_sections(game.id), "steps": steps}


def lessons() -> list[JSONObject]:
    """Every game's lesson (`lesson`), in menu order."""
    return [lesson(game_id) for game_id in GAMES if game_id in LESSONS]


def index() -> list[JSONObject]:
    """A short list of the lessons, without positions: per game its steps'
    ids, tasks and the sections they teach (for a list of lessons and progress)."""
    return [{"game": game_id, "name": GAMES[game_id].name,
             "steps": [{"id": s.id, "task": s.task, "teaches": list(s.teaches), "check": s.check}
                       for s in LESSONS[game_id].steps]}
            for game_id in GAMES if game_id in LESSONS]


def judge(game_id: str, step_id: str, move: object, record: object = None) -> JSONObject:
    """A move tried on a step, in words: {right, refused, done, move, words,
    view_after}. Refused: the engine's reason (IllegalMove's message). Right:
    the engine's words for the move and the step's reason. Wrong but legal:
    what the move leads to (the score it gives, or the proved result and
    the other seat's answer). A `play` step plays the move in the game
    `record` (the step's game so far) and the computer's answers, and adds
    {record, over, won}. Never raises for any move; raises LessonError for
    a step that does not exist, and RulesError for a bad game record."""
    found = _lesson(game_id)
    step = found.step(step_id)
    if step.check == "play":
        return _judge_game(found.game, step, move, record)
    state, seat, passes, proof = passing(found.game, step)
    after = _played(state, move, seat)
    if isinstance(after, str):
        return {"right": False, "refused": True, "done": False, "move": str(move)[:40], "words": after, "view_after": None}
    canonical = _canonical(state, seat, str(move), after)  # (played: it was text)
    did = after.last_move_text or canonical
    verdict: JSONObject = {"refused": False, "move": canonical, "view_after": after.view(seat)}
    if canonical in passes:
        return {**verdict, "right": True, "done": True, "words": f"Right: {did}. {_why(step, canonical)}".strip()}
    words = f"Not this one: {did}." + _leads_to(state, seat, canonical, after, step, passes, proof)
    return {**verdict, "right": False, "done": False, "words": f"{words} {step.hint}".strip()}


def _played(state: State, move: object, seat: int) -> State | str:
    """`move` played for `seat`, or, refused, the engine's reason in a sentence."""
    try:
        if not isinstance(move, str):
            raise RulesError(f"a move is written as text, not {type(move).__name__}")
        return state.play(move, seat)
    except RulesError as exc:
        return _sentence(str(exc))


def _canonical(state: State, seat: int, move: str, after: State) -> str:
    """The legal move as the engine lists it that `move` plays (a game may
    take another spelling of it, as Prime Target takes - for + where both agree)."""
    legal = state.legal_moves(seat)
    if move in legal:
        return move
    return next((m for m in legal if state.play(m, seat).moves_record == after.moves_record), move)


def _leads_to(state: State, seat: int, move: str, after: State, step: Step, passes: list[str],
              proof: JSONObject | None) -> str:
    """What a legal move that does not pass leads to, in a sentence or two
    (each starting with a space)."""
    over = f" {_sentence(after.view()['status'])}" if after.is_over else ""
    best = passes[0]
    if step.check == "gain":
        gain, most = _gain(state, move, seat), _gain(state, best, seat)
        return f"{over} That {_change(gain, gain < 0)}; {_named(state, best, seat)} {_change(most, gain < 0)}."
    if step.check == "proved" and proof is not None:
        values = _values(proof)
        value, top = values[move], values[best]
        reply = proof["others"].get(move, {}).get("reply")
        text = over
        if reply is not None and not after.is_over:
            answerer = after.to_move[0]
            text += f" In answer, {after.describe_move(reply, answerer)}."
        return (f"{text} With the best play on both sides that is {_OUTCOME.get(value, 'less')} for "
                f"{state.seat_name(seat)}, where {_named(state, best, seat)} keeps {_OUTCOME.get(top, 'more')}.")
    return over


def _change(gain: int, losing: bool = False) -> str:
    """A change of score in words; `losing`: said beside a move that costs points."""
    if gain > 0:
        return f"scores {counted(gain, 'point')}"
    if gain < 0:
        return f"costs {counted(-gain, 'point')}"
    return "costs nothing" if losing else "scores nothing"


def _game_state(game_id: str, step: Step, record: object) -> tuple[State, int]:
    """The lesson game `record`, checked to be this step's game (its options
    and seats as the step starts it)."""
    start, seat = position(game_id, step)
    state = load(record)
    if state.game.id != game_id or state.options != start.options or state.seats != start.seats:
        raise LessonError(f"that record is not a game of the step {step.id!r}: start it from the step's record")
    return state, seat


def _judge_game(game_id: str, step: Step, move: object, record: object) -> JSONObject:
    """A move of the learner in a lesson's game, and the computer's answers
    until the learner is to move again or the game is over."""
    state, seat = _game_state(game_id, step, record)
    after = _played(state, move, seat)
    if isinstance(after, str):
        return {"right": False, "refused": True, "done": False, "move": str(move)[:40], "words": after,
                "view_after": None, "record": state.record, "over": state.is_over, "won": False}
    said = [after.last_move_text or str(move)]
    while not after.is_over and seat not in after.to_move:
        other = after.to_move[0]
        reply = computer_move(after, other, level=PLAY_LEVEL, seed=after.plies)
        after = after.play(reply, other)
        said.append(after.last_move_text or reply)
    words = " ".join(_sentence(s) for s in said)
    if after.is_over:
        words += f" {_sentence(after.view()['status'])}"
    return {"right": True, "refused": False, "done": after.is_over, "move": str(move), "words": words,
            "view_after": after.view(seat), "record": after.record, "over": after.is_over,
            "won": seat in after.winners}


def answer(game_id: str, step_id: str, record: object = None) -> JSONObject:
    """"Show me": {moves, words}, the passing moves and why they pass; for a
    `play` step, a move the greedy computer level would play in the game
    `record`."""
    found = _lesson(game_id)
    step = found.step(step_id)
    if step.check == "play":
        state, seat = _game_state(found.game, step, record)
        if state.is_over or seat not in state.to_move:
            return {"moves": [], "words": _sentence(state.view()["status"])}
        move = computer_move(state, seat, level="greedy", seed=state.plies)
        return {"moves": [move], "words": f"One good move: {_named(state, move, seat)}."}
    state, seat, passes, _ = passing(found.game, step)
    if step.passes:
        words = " ".join(f"{_named(state, m, seat)}: {_why(step, m)}" for m in passes)
    else:
        some = [_named(state, m, seat) for m in passes[:3]]
        listed = some[0] if len(some) == 1 else f"{', '.join(some[:-1])} or {some[-1]}"
        more = f" ({len(passes)} moves in all)" if len(passes) > 3 else ""
        words = f"For example {listed}{more}: {step.reason}"
    return {"moves": passes, "words": words}


# -- checking ------------------------------------------------------------------------------


def problems(data: Mapping[str, Lesson] | None = None) -> list[str]:
    """What does not hold in the lessons (an empty list: all of them hold),
    each naming its game and step: the shape of each lesson, the rule
    sections taught, every position and every stated answer re-derived from
    the engine."""
    data = LESSONS if data is None else data
    found: list[str] = []
    for game_id in GAMES:
        if game_id not in data:
            found.append(f"{game_id}: no lesson")
    for game_id, found_lesson in data.items():
        if game_id not in GAMES or found_lesson.game != game_id:
            found.append(f"{game_id}: no such game")
            continue
        found.extend(_lesson_problems(game_id, found_lesson))
    return found


def _lesson_problems(game_id: str, found: Lesson) -> list[str]:
    out: list[str] = []
    steps = found.steps
    if not MIN_STEPS <= len(steps) <= MAX_STEPS:
        out.append(f"{game_id}: {len(steps)} steps; a lesson has {MIN_STEPS} to {MAX_STEPS}")
    if not steps or steps[-1].check != "play" or any(s.check == "play" for s in steps[:-1]):
        out.append(f"{game_id}: a lesson ends with one game against the computer (check 'play'), and only there")
    ids = [s.id for s in steps]
    if len(set(ids)) != len(ids):
        out.append(f"{game_id}: two steps share an id")
    sections = rule_sections(game_id)
    taught = {label for s in steps for label in s.teaches}
    for label in sections:
        if label not in taught:
            out.append(f"{game_id}: no step teaches the rule section {label!r}")
    for step in steps:
        name = f"{game_id} step {step.id!r}"
        for label in step.teaches:
            if label not in sections:
                out.append(f"{name}: teaches {label!r}, which is not a rule section of the game")
        try:
            out.extend(f"{name}: {p}" for p in _step_problems(game_id, step))
        except RulesError as exc:
            out.append(f"{name}: {exc}")
    return out


def _step_problems(game_id: str, step: Step) -> list[str]:
    """What does not hold in one step (raises RulesError for a position the engine refuses)."""
    out: list[str] = []
    if not _ID.fullmatch(step.id):
        out.append("a step id is lower-case words joined by '-'")
    if step.check not in CHECKS:
        return out + [f"the check is one of {', '.join(CHECKS)}, not {step.check!r}"]
    if not step.task.endswith((".", "?")) or not step.teaches:
        out.append("a step has a task in a sentence and teaches at least one rule section")
    if step.check == "play":
        return out + _game_problems(game_id, step)
    state, seat, passes, _ = passing(game_id, step)
    if state.is_over or seat not in state.to_move:
        return out + [f"{state.seat_name(seat)} is not to move in the position"]
    legal = state.legal_moves(seat)
    stated = set(step.passes)
    if not passes:
        out.append("no move passes")
    if step.passes and stated != set(passes):
        out.append(f"the moves that pass are {sorted(passes)}, the step says {sorted(stated)}")
    if step.check != "legal" and not step.passes:
        out.append("the step names the moves that pass (passes)")
    if step.check == "legal" and not step.passes and not step.reason:
        out.append("the step says why a legal move passes (reason)")
    if step.check != "legal" and set(passes) == set(legal):
        out.append("every legal move passes: a step that checks an answer needs a move that does not")
    if step.check == "words" and not step.words:
        out.append("the step names the words a passing move's description holds")
    return out


def _game_problems(game_id: str, step: Step) -> list[str]:
    """A lesson's game: two seats, the learner first, and short: seeded games
    of the computer's level against itself end within `PLAY_MOST` moves."""
    state, seat = position(game_id, step)
    if state.players != 2 or seat not in state.to_move or state.history:
        return ["a lesson's game is a new game of two seats that the learner (seat 0) begins"]
    for seed in range(3):
        s = state
        while not s.is_over and s.plies < PLAY_MOST:
            mover = s.to_move[0]
            s = s.play(computer_move(s, mover, level=PLAY_LEVEL, seed=seed + s.plies), mover)
        if not s.is_over:
            return [f"a game of these options may take more than {PLAY_MOST} moves: not a short game"]
    return []


def check_all(data: Mapping[str, Lesson] | None = None) -> None:
    """Raise LessonError naming every step that no longer holds (`problems`)."""
    found = problems(data)
    if found:
        raise LessonError(f"{len(found)} lesson problem{'s' if len(found) > 1 else ''}: " + "; ".join(found))
