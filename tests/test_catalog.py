"""The game catalog build.py writes into build.json (the page draws its game
list, setup screens and rules from it before Python has loaded) is the
engine's own answer to the bridge call "games": copied, never restated."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
import quetgames
from quetgames import bridge

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import build  # noqa: E402  (the repo's build.py)


def bridge_games() -> list[dict]:
    answer = json.loads(bridge.call("games"))
    assert answer["ok"], answer
    return answer["result"]


def test_the_build_catalog_is_the_bridge_answer() -> None:
    assert build.engine_catalog() == bridge_games()


def test_every_game_names_the_code_its_records_carry() -> None:
    games = bridge_games()
    assert [g["id"] for g in games] == list(quetgames.GAMES)
    for entry in games:
        record = quetgames.new_game(entry["id"]).record
        assert record.split(".")[:2] == ["q2", entry["code"]]
    assert len({g["code"] for g in games}) == len(games)


@pytest.mark.skipif("QUET_DIST" not in os.environ, reason="no built site named (QUET_DIST; `python build.py test` sets it)")
def test_the_built_site_carries_the_catalog() -> None:
    info = json.loads((Path(os.environ["QUET_DIST"]) / "build.json").read_text())
    assert info["games"] == bridge_games()
