"""Answers known before the engine: what a lesson or a puzzle page first asks.

A lesson's first screen and a puzzle's position depend on nothing but the
build: the lesson's data, the puzzle's stored entry, and (for the puzzle of
the day) the date. So the build asks the bridge those questions once, with
this module, and writes the answers as static files (build.py, `known/` in
dist). A page opened before Python has arrived draws from them at once
(web/bridge/known.js); every move it then sends waits for the engine itself.

Each answer is the bridge's own, to the very request the page makes, so the
page that reads it holds no rule; `known_answers` goes through `bridge.call`
for that reason, JSON in and out. A puzzle's answer leaves out only its
`moves` (every legal move in words), which no page reads and which is up to
150 kB for a Prime Target ring.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Sequence

from . import bridge
from .data import JSON, JSONObject
from .lessons import LESSONS

# The puzzle of the day is written for every date from FIRST_DAY on, for DAYS
# days, as indices into the puzzle list: about 4 kB, the same whatever day the
# build runs (a date outside it asks the engine). The list's ids come with
# them, so that the page's first script can ask for the day's board and
# position beside its modules (web/index.html), and the page can check that
# the days index the list it holds.
FIRST_DAY = datetime.date(2026, 1, 1)
DAYS = 5 * 366

PUZZLE_LEFT_OUT = ("moves",)


def _ask(call: str, args: JSONObject) -> JSON:
    said = json.loads(bridge.call(call, json.dumps(args)))
    if not said.get("ok"):
        raise ValueError(f"the bridge refused {call} {args}: {said.get('error')}")
    return said["result"]


def lesson_file(game: str) -> str:
    return f"lesson-{game}.json"


def puzzle_file(puzzle_id: str) -> str:
    return f"puzzle-{puzzle_id}.json"


DAYS_FILE = "days.json"


def known_answers(puzzles: Sequence[JSONObject]) -> dict[str, JSON]:
    """The files of `known/`, by name: each lesson (the answer to
    {"game": id}), each puzzle's position (to {"puzzle": entry}, without
    `moves`), and the puzzle of the day for each date of the span (the index
    in `puzzles` of the answer to {"ids": every id, "date": the date}, with
    those ids)."""
    files: dict[str, JSON] = {}
    for game in LESSONS:
        files[lesson_file(game)] = _ask("lesson", {"game": game})
    for puzzle in puzzles:
        shown = _ask("puzzle", {"puzzle": puzzle})
        assert isinstance(shown, dict)
        files[puzzle_file(str(puzzle["id"]))] = {k: v for k, v in shown.items() if k not in PUZZLE_LEFT_OUT}
    ids = [str(p["id"]) for p in puzzles]
    if ids:
        where = {puzzle_id: i for i, puzzle_id in enumerate(ids)}
        days: list[JSON] = []
        for n in range(DAYS):
            date = (FIRST_DAY + datetime.timedelta(days=n)).isoformat()
            days.append(where[str(_ask("puzzle_of_the_day", {"ids": list(ids), "date": date}))])
        files[DAYS_FILE] = {"first": FIRST_DAY.isoformat(), "count": len(ids), "days": days, "ids": ids}
    return files
