"""The answers the build writes into known/ (quetgames.known) are the
bridge's own answers to the requests a lesson's or a puzzle's page makes
first (web/bridge/known.js), so a page drawn from them before Python has
arrived shows what the engine would."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import quetgames
from quetgames import bridge, known, puzzles

PUZZLES = json.loads((Path(__file__).resolve().parents[1] / "docs" / "puzzles.json").read_text(encoding="utf-8"))["puzzles"]
FILES = known.known_answers(PUZZLES[::50])  # every 50th puzzle: the shapes, without answering all 505 again


def ask(call: str, **args: object) -> object:
    said = json.loads(bridge.call(call, json.dumps(args)))
    assert said["ok"], said
    return said["result"]


def test_every_games_lesson_is_the_bridges_answer() -> None:
    for game in quetgames.GAMES:
        assert FILES[known.lesson_file(game)] == ask("lesson", game=game)


def test_a_puzzles_position_is_the_bridges_answer_without_its_move_list() -> None:
    for puzzle in PUZZLES[::50]:
        shown = ask("puzzle", puzzle=puzzle)
        assert isinstance(shown, dict) and shown["moves"], "the bridge lists every move in words"
        kept = FILES[known.puzzle_file(puzzle["id"])]
        assert kept == {k: v for k, v in shown.items() if k != "moves"}
        assert kept["view"]["legal_moves"] == shown["view"]["legal_moves"]  # (the board's targets are there)


def test_the_day_of_each_date_is_the_engines_choice() -> None:
    ids = [p["id"] for p in PUZZLES[::50]]
    days = FILES[known.DAYS_FILE]
    assert days["first"] == known.FIRST_DAY.isoformat() and days["count"] == len(ids) and days["ids"] == ids
    assert len(days["days"]) == known.DAYS
    for n in (0, 1, 333, 700, known.DAYS - 1):
        date = (known.FIRST_DAY + datetime.timedelta(days=n)).isoformat()
        assert ids[days["days"][n]] == puzzles.puzzle_of_the_day(ids, date)
    # (the span reaches well past today: a date after it asks the engine)
    assert known.FIRST_DAY + datetime.timedelta(days=known.DAYS) > datetime.date(2030, 12, 31)


def test_only_json_that_round_trips_is_written() -> None:
    for name, answer in FILES.items():
        assert name.endswith(".json") and "/" not in name
        assert json.loads(json.dumps(answer)) == answer
