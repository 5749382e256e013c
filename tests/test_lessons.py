"""The lessons (quetgames.lessons, docs/LEARN.md): every game has one, in the
same shape; every rule section of every game is taught by a step; every
stated answer is what the engine says, every other legal move is told it is
wrong, a refused move gets the engine's own reason; and the build's check
catches a step that no longer holds."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import quetgames
from quetgames import GAMES, IllegalMove, RulesError, bridge, lessons
from quetgames.lessons import LESSONS, NOT_RULES, LessonError, Step

ROOT = Path(__file__).resolve().parent.parent
STEPS = [(game_id, step) for game_id, lesson in LESSONS.items() for step in lesson.steps]
TASKS = [(g, s) for g, s in STEPS if s.check != "play"]
GAME_STEPS = [(g, s) for g, s in STEPS if s.check == "play"]


def _ids(pairs: list[tuple[str, Step]]) -> list[str]:
    return [f"{g}:{s.id}" for g, s in pairs]


# -- the shape of every lesson ----------------------------------------------------------


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_game_has_a_lesson_of_four_to_eight_steps_ending_in_a_game(game_id: str) -> None:
    steps = LESSONS[game_id].steps
    assert 4 <= len(steps) <= 8
    assert [s.check for s in steps].count("play") == 1 and steps[-1].check == "play"
    described = lessons.lesson(game_id)
    game = described["steps"][-1]
    # a new game on a small board, the learner in seat 0 to begin, the computer at its easiest level
    state = quetgames.load(game["record"])
    assert state.history == () and state.to_move[0] == 0 and state.players == 2
    assert [s.kind for s in state.seats] == ["human", "random"] and game["computer"] == "random"
    # small: no number the options set (a side, a count of wedges, rounds, terms) above its default
    defaults = GAMES[game_id].defaults
    for name, value in state.options.items():
        if isinstance(value, int) and isinstance(defaults.get(name), int):
            assert value <= defaults[name], name
    for step in described["steps"]:
        assert step["task"] and step["teaches"] and step["view"]["game"] == game_id
        # the position the page draws is the one the engine judges on
        assert step["view"]["record"] == quetgames.load(step["record"]).view()["record"]


# -- every rule section is taught -------------------------------------------------------


def _rules_md_sections() -> dict[str, list[str]]:
    """The bold-labelled paragraphs of each game in docs/RULES.md, as a reader
    sees them, without those that are no rules of play (lessons.NOT_RULES)."""
    text = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    found: dict[str, list[str]] = {}
    for part in re.split(r"^## ", text, flags=re.M)[1:]:
        name = part.splitlines()[0].strip()
        game_id = next(g.id for g in GAMES.values() if g.name == name)
        labels = re.findall(r"^\*\*(.+?)\.\*\*", part, re.M)
        found[game_id] = [label for label in labels if label not in NOT_RULES]
    return found


def coverage(game_id: str) -> dict[str, list[str]]:
    """Each rule section of a game's rules -> the ids of the steps that teach it."""
    return {label: [s.id for s in LESSONS[game_id].steps if label in s.teaches]
            for label in _rules_md_sections()[game_id]}


def test_the_rule_sections_are_those_docs_rules_shows() -> None:
    shown = _rules_md_sections()
    assert set(shown) == set(GAMES)
    for game_id in GAMES:
        assert lessons.rule_sections(game_id) == shown[game_id]
        assert len(shown[game_id]) >= 4  # the parse found the rules, not nothing


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_rule_section_is_taught_by_a_step(game_id: str) -> None:
    untaught = [label for label, steps in coverage(game_id).items() if not steps]
    assert not untaught, f"{game_id}: no step teaches {untaught}"
    sections = set(coverage(game_id))
    for step in LESSONS[game_id].steps:
        assert set(step.teaches) <= sections, f"{step.id} names a section the rules do not have"


def test_what_is_no_rule_is_said_in_learn_md() -> None:
    text = (ROOT / "docs" / "LEARN.md").read_text(encoding="utf-8")
    for label in NOT_RULES:
        assert label in text


# -- answers, judged by the engine ------------------------------------------------------


@pytest.mark.parametrize(("game_id", "step"), TASKS, ids=_ids(TASKS))
def test_stated_answers_are_the_engines(game_id: str, step: Step) -> None:
    state, seat, derived, _ = lessons.passing(game_id, step)
    legal = state.legal_moves(seat)
    stated = list(step.passes) or legal  # a "legal" step without a list: every legal move
    assert set(stated) == set(derived)
    for move in stated:
        assert move in legal
        verdict = lessons.judge(game_id, step.id, move)
        assert verdict["right"] and verdict["done"] and not verdict["refused"], verdict
        assert verdict["words"].startswith("Right: ") and _why(step, move) in verdict["words"]
        # the engine's own words for the move come first
        assert state.describe_move(move, seat) in verdict["words"]
        assert verdict["view_after"] == state.play(move, seat).view(seat)  # the board after the move
    assert lessons.answer(game_id, step.id)["moves"] == derived


@pytest.mark.parametrize(("game_id", "step"), TASKS, ids=_ids(TASKS))
def test_a_right_answer_says_nothing_twice(game_id: str, step: Step) -> None:
    """Issue 56: the step's why adds to the engine's words for the move and
    repeats none of them (Multiplications' step 2 said twice that the x in the
    leftmost column is numbered 1): no run of five words is in both."""
    state, seat, derived, _ = lessons.passing(game_id, step)
    for move in list(step.passes) or derived[:3]:
        words = re.findall(r"[\w×]+", state.describe_move(move, seat).lower())
        why = " ".join(re.findall(r"[\w×]+", _why(step, move).lower()))
        runs = {" ".join(words[i:i + 5]) for i in range(len(words) - 4)}
        assert not [run for run in runs if run in why], (move, _why(step, move))


def _why(step: Step, move: str) -> str:
    return step.passes.get(move) or step.reason


@pytest.mark.parametrize(("game_id", "step"), TASKS, ids=_ids(TASKS))
def test_other_legal_moves_are_judged_wrong_with_what_they_lead_to(game_id: str, step: Step) -> None:
    state, seat, derived, _ = lessons.passing(game_id, step)
    others = [m for m in state.legal_moves(seat) if m not in derived]
    if step.check == "legal":
        assert not others
        return
    assert others, "a step that checks an answer has a move that fails"
    for move in random.Random(step.id).sample(others, min(5, len(others))):
        verdict = lessons.judge(game_id, step.id, move)
        assert not verdict["right"] and not verdict["refused"] and not verdict["done"]
        assert verdict["words"].startswith("Not this one: ") and verdict["view_after"] is not None
        after = state.play(move, seat)
        if after.is_over:  # a move that ends the game says how it ended
            assert after.view()["status"] in verdict["words"]
        if step.check == "gain":
            assert "scores" in verdict["words"] or "costs" in verdict["words"]
        if step.check == "proved":
            assert "With the best play on both sides" in verdict["words"]


def test_a_wrong_move_in_a_proved_step_hears_the_answer_the_proof_gives() -> None:
    verdict = lessons.judge("multiplications", "long-run", "c1")
    assert "In answer, Player 1 wrote 6 on the x at g5" in verdict["words"]
    assert "a loss for Player 2" in verdict["words"]


# Moves some game refuses, in every game's notation; each step takes the first its engine refuses.
NOT_LEGAL = ["a1", "b1", "zz9", "e5", "b2=9", "c3=0", "9@9", "5@1", "1", "6", "7", "+", "++-", "-", ""]


@pytest.mark.parametrize(("game_id", "step"), TASKS, ids=_ids(TASKS))
def test_a_refused_move_gets_the_engines_reason(game_id: str, step: Step) -> None:
    state, seat = lessons.position(game_id, step)
    refused = 0
    for move in NOT_LEGAL:
        try:
            state.play(move, seat)
        except IllegalMove as exc:
            verdict = lessons.judge(game_id, step.id, move)
            assert verdict == {"right": False, "refused": True, "done": False, "move": move,
                               "words": lessons._sentence(str(exc)), "view_after": None}
            assert verdict["words"].startswith(str(exc))
            refused += 1
    assert refused >= 3


def test_a_refusal_reads_as_the_engine_says_it() -> None:
    # Convoluted Coprimality, the 8: d3 is inside the grid and touches only the 7
    verdict = lessons.judge("convoluted-coprimality", "inside", "d3")
    assert verdict["words"] == ("d3 is not on the edge of the grid and touches only one number (7); "
                                "a square inside the grid must touch at least two numbers.")


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(STEPS), st.one_of(st.text(max_size=24), st.integers(), st.none(),
                                         st.lists(st.integers(), max_size=3), st.floats(allow_nan=True)))
def test_judge_never_raises_for_any_move(pair: tuple[str, Step], move: object) -> None:
    game_id, step = pair
    record = lessons.lesson(game_id)["steps"][-1]["record"] if step.check == "play" else None
    verdict = lessons.judge(game_id, step.id, move, record)
    assert isinstance(verdict["words"], str) and verdict["words"]
    if step.check == "play":  # in the game every move the engine takes is right
        assert verdict["right"] is not verdict["refused"]
    json.dumps(verdict)


# -- the game at the end ----------------------------------------------------------------


@pytest.mark.parametrize(("game_id", "step"), GAME_STEPS, ids=_ids(GAME_STEPS))
def test_the_lesson_game_is_played_to_its_end_against_the_computer(game_id: str, step: Step) -> None:
    record = lessons.lesson(game_id)["steps"][-1]["record"]
    verdict: dict[str, object] = {}
    for _ in range(60):
        shown = lessons.answer(game_id, step.id, record)
        assert shown["moves"], shown
        verdict = lessons.judge(game_id, step.id, shown["moves"][0], record)
        assert verdict["right"] and not verdict["refused"]
        record = str(verdict["record"])
        if verdict["done"]:
            break
    assert verdict["over"] and verdict["done"]
    state = quetgames.load(record)
    assert state.is_over and verdict["won"] == (0 in state.winners)
    assert state.view()["status"] in str(verdict["words"])
    # the computer answered every time: the learner's seat moved about half the moves
    assert 0 < state.movers.count(0) < len(state.movers)


def test_the_lesson_game_refuses_another_game() -> None:
    other = quetgames.new_game("convoluted-coprimality", size=12).record
    with pytest.raises(LessonError, match="not a game of the step"):
        lessons.judge("convoluted-coprimality", "game", "b1", other)
    with pytest.raises(RulesError):
        lessons.judge("convoluted-coprimality", "game", "b1", "q1.zz.bad")


# -- the build's check -------------------------------------------------------------------


def test_every_lesson_holds() -> None:
    assert lessons.problems() == []
    lessons.check_all()


def _with_step(game_id: str, step_id: str, **changes: object) -> dict[str, lessons.Lesson]:
    """A copy of the lessons with one step changed."""
    lesson = LESSONS[game_id]
    steps = tuple(dataclasses.replace(s, **changes) if s.id == step_id else s for s in lesson.steps)  # type: ignore[arg-type]
    return {**LESSONS, game_id: dataclasses.replace(lesson, steps=steps)}


@pytest.mark.parametrize(("game_id", "step_id", "changes", "said"), [
    # a stated answer the engine does not bear out
    ("convoluted-coprimality", "knocked-out", {"passes": {"c2": "A wrong reason."}}, "the moves that pass are ['d3']"),
    ("multiplications", "long-run", {"passes": {"g5": "The greedy move."}}, "the moves that pass are ['f3']"),
    ("prime-target", "lone-prime", {"passes": {"++++": "More primes."}}, "the moves that pass are ['+-+-']"),
    ("enumeration", "above", {"words": ("at f3", "(the count left of it)")}, "the moves that pass are ['f3=3']"),
    ("nonconformity", "score", {"passes": {"5": "x", "6": "y"}}, "the moves that pass are ['5']"),
    # a position the engine refuses, or that no longer asks the learner
    ("convoluted-coprimality", "the-2", {"moves": ("c3",)}, "c3 is not next to 1"),
    ("enumeration", "first", {"seat": 1}, "it is not Player 2's turn"),
    # a check every move passes, and a step with no answer stated
    ("multiplications", "most", {"check": "legal"}, "the moves that pass are"),
    ("prime-target", "count", {"passes": {}}, "names the moves that pass"),
    # a section no step teaches any more
    ("nonconformity", "sitting-out", {"teaches": ("Scoring",)}, "no step teaches the rule section 'Sitting out'"),
    ("nonconformity", "pick", {"teaches": ("Sealing",)}, "not a rule section"),
])
def test_check_all_catches_a_broken_step(game_id: str, step_id: str, changes: dict[str, object], said: str) -> None:
    broken = _with_step(game_id, step_id, **changes)
    with pytest.raises(LessonError) as caught:
        lessons.check_all(broken)
    message = str(caught.value)
    assert said in message
    if "rule section" not in said:
        assert f"{game_id} step {step_id!r}" in message  # the step is named


def test_check_all_catches_a_lesson_of_the_wrong_shape() -> None:
    lesson = LESSONS["prime-target"]
    short = {**LESSONS, "prime-target": dataclasses.replace(lesson, steps=lesson.steps[:1] + lesson.steps[-1:])}
    with pytest.raises(LessonError, match="2 steps; a lesson has 4 to 8"):
        lessons.check_all(short)
    no_game = {**LESSONS, "prime-target": dataclasses.replace(lesson, steps=lesson.steps[:-1])}
    with pytest.raises(LessonError, match="ends with one game against the computer"):
        lessons.check_all(no_game)
    endless = _with_step("multiplications", "game", options={"k": 12})
    with pytest.raises(LessonError, match="not a short game"):
        lessons.check_all(endless)


# -- the bridge ------------------------------------------------------------------------------


def _call(args: dict[str, object]) -> dict[str, object]:
    return json.loads(bridge.call("lesson", json.dumps(args)))  # type: ignore[no-any-return]


def test_the_bridge_lists_shows_judges_and_answers() -> None:
    listed = _call({})["result"]
    assert [entry["game"] for entry in listed] == list(GAMES)  # type: ignore[index, union-attr]
    shown = _call({"game": "convoluted-coprimality"})["result"]
    assert shown["steps"][2]["id"] == "knocked-out" and shown["steps"][2]["seat"] == 1  # type: ignore[index]
    right = _call({"game": "convoluted-coprimality", "step": "knocked-out", "move": "d3"})["result"]
    assert right["right"] is True and right["words"].startswith("Right: Player 2 wrote 6 at d3.")  # type: ignore[index]
    wrong = _call({"game": "convoluted-coprimality", "step": "knocked-out", "move": "c2"})["result"]
    assert wrong["right"] is False and "Player 2 is out" in wrong["words"]  # type: ignore[index]
    refused = _call({"game": "convoluted-coprimality", "step": "knocked-out", "move": "a4"})["result"]
    assert refused["refused"] is True  # type: ignore[index]
    assert _call({"game": "convoluted-coprimality", "step": "knocked-out", "answer": True})["result"]["moves"] == ["d3"]  # type: ignore[index]
    for bad in ({"game": "chess"}, {"game": 3}, {"game": "enumeration", "step": "nope", "move": "b2=0"},
                {"game": "enumeration", "step": "first"}, {"game": "enumeration", "step": "game", "move": "b2=0"}):
        reply = _call(bad)
        assert reply["ok"] is False and reply["error"]["type"] != "InternalError", bad  # type: ignore[index]


def test_the_step_worked_through_in_learn_md_says_what_the_engine_says() -> None:
    text = " ".join((ROOT / "docs" / "LEARN.md").read_text(encoding="utf-8").split())
    state, _ = lessons.position("convoluted-coprimality", LESSONS["convoluted-coprimality"].step("knocked-out"))
    assert state.text_board() in (ROOT / "docs" / "LEARN.md").read_text(encoding="utf-8")
    for move in ("d3", "c2", "a4"):
        words = lessons.judge("convoluted-coprimality", "knocked-out", move)["words"]
        assert f"*{words}*" in text, move
    wrong = lessons.judge("multiplications", "long-run", "c1")["words"]
    assert f"*{wrong.removesuffix(' ' + LESSONS['multiplications'].step('long-run').hint)}*" in text
