"""Balance figures for the page: looking a setting up in the report
(docs/balance.json) by the engine's normalised options, and the trimmed copy
build.py writes into build.json for the setup screens and "How to play"."""

from __future__ import annotations

import copy
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from quetgames.balance import lookup, page_data, setting_key
from quetgames.errors import InvalidOptions

ROOT = Path(__file__).resolve().parent.parent
REPORT = json.loads((ROOT / "docs" / "balance.json").read_text())
sys.path.insert(0, str(ROOT))
import build  # noqa: E402  (the repo's build.py)


def found(game_id: str, options: dict[str, Any]) -> dict[str, Any] | None:
    row = lookup(REPORT, game_id, options)
    return None if row is None else {"options": row["options"], "players": row["players"], "proved": row["proved"]}


def test_the_defaults_find_the_row_named_by_fewer_options() -> None:
    # The default two-seat 12 × 12 grid is measured as {"size": 12}: spelling
    # out the defaults, or leaving them out, finds the same proved row.
    for options in ({}, {"size": 12}, {"players": 2, "size": 12, "max_rounds": 3}):
        assert found("convoluted-coprimality", options) == {"options": {"size": 12}, "players": 2, "proved": 0.0}
    assert found("convoluted-coprimality", {"size": 5}) == {"options": {"size": 5}, "players": 2, "proved": 1.0}
    assert found("convoluted-coprimality", {"size": 12, "max_rounds": 2}) is None


def test_a_row_measured_with_some_seats_applies_to_those_seats_only() -> None:
    # 12 × 12 is measured with 2, 3, 4 and 5 seats: four different rows.
    seen = {p: found("convoluted-coprimality", {"players": p}) for p in (2, 3, 4, 5, 6)}
    assert [seen[p]["players"] if seen[p] else None for p in (2, 3, 4, 5, 6)] == [2, 3, 4, 5, None]
    assert seen[3] == {"options": {"players": 3, "size": 12}, "players": 3, "proved": None}
    assert found("prime-target", {"players": 3}) == {"options": {"players": 3, "rays": 8}, "players": 3, "proved": None}
    assert found("multiplications", {"players": 6}) is None


def test_an_option_that_does_not_apply_is_dropped_as_the_engine_drops_it() -> None:
    # Enumeration's solitaire target means nothing to two players.
    assert found("enumeration", {"size": 4, "target": "even"}) == {"options": {"size": 4}, "players": 2, "proved": None}


def test_a_drawn_start_matches_only_rows_measured_over_draws() -> None:
    # Nonconformity's rows were played from drawn starts; a seed or starts
    # given is one particular start, which they say nothing about.
    assert found("nonconformity", {})["options"] == {"length": 10, "max_pick": 1000}
    assert found("nonconformity", {"same_start": True})["options"] == {"length": 10, "same_start": True}
    assert found("nonconformity", {"seed": 0}) is None
    assert found("nonconformity", {"starts": (29, 14)}) is None
    # the key says which kind of setting it is
    assert setting_key("nonconformity", {})[2] is True
    assert setting_key("nonconformity", {"seed": 4})[2] is False


def test_options_the_game_refuses_are_refused_in_words() -> None:
    with pytest.raises(InvalidOptions, match="size"):
        lookup(REPORT, "convoluted-coprimality", {"size": 99})


def test_the_page_data_holds_every_row_with_full_options_and_the_same_figures() -> None:
    data = page_data(REPORT)
    assert data["stale"] == []
    assert sum(len(g["rows"]) for g in data["games"].values()) == len(REPORT["rows"])
    for game_id, figures in data["games"].items():
        report_rows = [r for r in REPORT["rows"] if r["game"] == game_id]
        for page_row, row in zip(figures["rows"], report_rows, strict=True):
            # the full options, fed back to the engine, find the report's row
            assert lookup(REPORT, game_id, {k: v for k, v in page_row["options"].items() if v is not None}) == row
            assert page_row["seats"] == row["players"]
            if row["proved"] is not None:
                assert page_row["proved"] == row["proved"] and "share" not in page_row
            else:
                assert page_row["games"] == row["games"]
                for key in ("share", "low", "high", "shared"):
                    assert page_row[key] == pytest.approx(row[key], abs=1e-4)
        # the fairest settings point at their rows
        assert [report_rows[i]["options"] for i in figures["fairest"]] == [f["options"] for f in REPORT["fairest"][game_id]]
    cc = data["games"]["convoluted-coprimality"]["rows"]
    assert cc[0] == {"options": {"players": 2, "size": 4, "max_rounds": 3}, "seats": 2, "fair": 0.5,
                     "proved": 0.0, "proved_winner": 2}
    nc = data["games"]["nonconformity"]["rows"][0]["options"]
    assert nc == {"length": 5, "max_pick": 100, "starts": None, "same_start": False, "seed": None}


def test_rows_measured_with_other_options_than_todays_are_left_out() -> None:
    report = copy.deepcopy(REPORT)
    report["rows"][0]["record_options"] = "p2_s4_r2"  # as if max_rounds' default had been 2 then
    report["rows"][1]["options"] = {"size": 99}
    data = page_data(report)
    assert data["stale"] == ["convoluted-coprimality {'size': 4}", "convoluted-coprimality {'size': 99}"]
    assert len(data["games"]["convoluted-coprimality"]["rows"]) == len(page_data(REPORT)["games"]["convoluted-coprimality"]["rows"]) - 2


def test_the_build_reads_the_report_through_the_engine() -> None:
    assert build.balance_figures() == page_data(REPORT)


@pytest.mark.skipif("QUET_DIST" not in os.environ, reason="no built site named (QUET_DIST; `python build.py test` sets it)")
def test_the_built_site_carries_the_balance_figures() -> None:
    info = json.loads((Path(os.environ["QUET_DIST"]) / "build.json").read_text())
    assert info["balance"] == page_data(REPORT)
    assert info["balance"]["games_per_setting"] == REPORT["games_per_setting"] == 24
