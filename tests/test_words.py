"""The words players read match the rules, one word to one idea (issues 46 and 49):
every lesson task says who the learner is; How to play names no file of the
site's source; Nonconformity's hint and refusal say "or" where the rule means
or; Prime Target's texts say "beneath" for the numbers a wedge is made from."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import quetgames
from quetgames.errors import RulesError
from quetgames.help import game_help, rules_document
from quetgames.lessons import LESSONS, position

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"


@pytest.mark.parametrize(("game_id", "step"), [(g, s) for g, lesson in LESSONS.items() for s in lesson.steps],
                         ids=lambda v: v if isinstance(v, str) else v.id)
def test_every_lesson_task_says_who_you_are(game_id: str, step) -> None:
    state, seat = position(game_id, step)
    if state.players == 1:
        assert re.search(r"\balone\b", step.task), step.task
    else:
        assert re.search(rf"\b(you are|as|you,) Player {seat + 1}\b", step.task, re.I), step.task
        others = {n for n in range(1, state.players + 1) if n != seat + 1}
        assert not re.search(rf"\byou are Player ({'|'.join(map(str, others))})\b", step.task, re.I), step.task


def test_a_step_with_its_own_position_says_so() -> None:
    # Nonconformity's step 2 does not follow from the pick of step 1
    assert "starts from its own position" in LESSONS["nonconformity"].step("score").task


SOURCE_PATH = re.compile(r"\b(docs|py|web|e2e|tests)/[\w./-]+|\b[\w-]+\.(md|py|js)\b")


@pytest.mark.parametrize("game_id", list(quetgames.GAMES))
def test_how_to_play_names_no_source_file(game_id: str) -> None:
    game = quetgames.GAMES[game_id]
    texts = [game.rules, game.summary, *game_help(game).values(), *(e.caption for e in game.examples)]
    for text in texts:
        assert not SOURCE_PATH.search(text), SOURCE_PATH.search(text)


def test_the_help_pages_scripts_show_no_source_file() -> None:
    """The strings How to play draws (help.js, balance.js) as text: no file of the source."""
    for name in ("features/help.js", "features/balance.js"):
        source = (WEB / name).read_text()
        shown = [m.group(1) for m in re.finditer(r'h\("(?:p|span|li|a|strong|em)"[^)]*?"([^"]*)"\)', source)]
        for text in shown:
            assert not re.search(r"\b(docs|py|web)/\S+\.(md|py|js)\b", text), (name, text)


@pytest.mark.parametrize(("last", "factors"), [(6, "2 or 3"), (30, "2, 3 or 5"), (2 * 5 * 67, "2, 5 or 67"), (10, "2 or 5")])
def test_nonconformitys_refusal_says_or(last: int, factors: str) -> None:
    state = quetgames.new_game("nonconformity", starts=(last, 4), max_pick=1000)
    with pytest.raises(RulesError) as refused:
        state.play("7", 0)
    assert f"a multiple of {factors})" in str(refused.value), str(refused.value)
    assert " and " not in str(refused.value).split("(", 1)[1], str(refused.value)


def test_nonconformitys_hint_says_or() -> None:
    """The pick's hint (boards/nonconformity.js) lists the primes with "or"."""
    board = (WEB / "boards" / "nonconformity.js").read_text()
    hint = re.search(r"A multiple of \$\{words\(b\.factors\[seat\]\.map\(String\), \"(\w+)\"\)\}", board)
    assert hint and hint.group(1) == "or"


def test_nonconformitys_starts_have_one_range() -> None:
    """The starts' help and the setup hint's range (its min and max) say the same."""
    starts = next(o for o in quetgames.GAMES["nonconformity"].describe()["options"] if o["name"] == "starts")
    pick = next(o for o in quetgames.GAMES["nonconformity"].describe()["options"] if o["name"] == "max_pick")
    # the help names the largest pick as the bound, and so does what the setup
    # screen's hint is made from (shell/setup.js: "Each 2 to the largest pick")
    assert "largest pick" in starts["help"], starts
    assert starts["at_most"] == "max_pick" and pick["short"] == "largest pick", starts


def test_prime_target_says_beneath_for_the_numbers_a_wedge_is_made_from() -> None:
    game = quetgames.GAMES["prime-target"]
    texts = [game.summary, game.rules, *(s.task for s in LESSONS["prime-target"].steps)]
    for text in texts:
        assert "just inside it" not in text and "numbers inside it" not in text, text
    assert "beneath it" in game.summary
    assert "just inside it" not in rules_document().split("## Prime Target", 1)[-1].split("\n## ", 1)[0]
