"""What a newcomer trips over (issue 16), each reproduced as a person meets it.

- Nonconformity's "random" starts: two Quick starts may differ, and the setup
  form leaves the seed empty ("leave unset for a fresh draw").

Expected records and views come from the Python engine in py/.
"""

from __future__ import annotations

import re

import quetgames
from playwright.sync_api import Page

from .harness import Watched, go, open_record, shoot, wait_fragment_change


def home(w: Watched) -> None:
    open_record(w, "")


def quick_start(w: Watched, game_id: str) -> str:
    """Press the game card's Quick start; the new game's record."""
    home(w)
    old = w.fragment()
    w.page.locator(f"#game-{game_id} form.new-game button").click()
    record = wait_fragment_change(w, old)
    w.page.locator("section.game").wait_for()
    return record


# -- (2) random starts that are random ---------------------------------------------------


def test_nonconformity_quick_starts_draw_their_own_starts(w: Watched, page: Page) -> None:
    starts = set()
    for _ in range(6):
        record = quick_start(w, "nonconformity")
        state = quetgames.load(record)
        starts.add(state.options["starts"])
        assert re.fullmatch(r"q1\.nc\.l10_m1000_s\d+x\d+\.", record), record
    # six draws from 29 × 29 pairs all alike would be a one-in-10^14 fluke
    assert len(starts) > 1, f"every Quick start drew {starts}"
    shoot(page, "newcomer-nonconformity-quick")


def test_nonconformity_setup_leaves_the_seed_unset(w: Watched, page: Page) -> None:
    go(w, "setup=nonconformity", wait=True)
    seed = page.locator("input[name=seed]")
    assert seed.input_value() == ""
    assert "fresh draw" in page.locator("[data-option=seed] label").inner_text()
    assert page.locator("input[name='starts.0']").input_value() == ""
