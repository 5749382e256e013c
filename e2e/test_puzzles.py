"""Puzzles (web/puzzles.js, docs/PUZZLES.md), played like a person: from the
home page's entry, one puzzle failed on purpose (the answer says why, in
words, and the solution can be shown) and another solved by clicking the
board; the rating and streak kept on this device move as they should."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .harness import Watched, go

PUZZLES = json.loads((Path(__file__).resolve().parent.parent / "docs" / "puzzles.json").read_text())["puzzles"]


def first(game: str) -> dict:
    return next(p for p in PUZZLES if p["game"] == game and len(p["solutions"]) == 1
                and any(o["reply"] for o in p["others"].values()))


def open_puzzle(w: Watched, page: Page, puzzle_id: str) -> None:
    go(w, f"puzzle={puzzle_id}", wait=True)
    page.locator(f'section.puzzle[data-puzzle="{puzzle_id}"]').wait_for()


def click(page: Page, move: str) -> str:
    """Play `move` on the puzzle's board and return the answer said."""
    target = page.locator(f'#board [data-move="{move}"]').first
    try:
        target.click(timeout=3000)
    except PlaywrightTimeout:
        target.focus()
        page.keyboard.press("Enter")
    page.locator("#puzzle-answer[data-answer]").wait_for()
    return page.locator("#puzzle-answer").inner_text()


def score(page: Page) -> dict:
    return page.evaluate("() => JSON.parse(localStorage.getItem('quetgames.puzzles'))")


def test_fail_one_puzzle_then_solve_another(w: Watched, page: Page) -> None:
    page.evaluate("() => localStorage.removeItem('quetgames.puzzles')")
    entry = page.locator("section.puzzles-entry")  # on the home page the module's page opened on
    entry.wait_for()
    assert entry.get_by_role("link", name="Puzzle of the day").count() == 1

    # Failed on purpose: a wrong move, answered in words with the other seat's reply.
    missed = first("convoluted-coprimality")
    open_puzzle(w, page, missed["id"])
    assert "invented by Leroy Quet" in page.locator("section.puzzle").inner_text()
    status = page.locator("#puzzle-answer")
    assert status.get_attribute("role") == "status" and "find the one move" in status.inner_text()
    wrong = next(m for m, o in missed["others"].items() if o["reply"])
    said = click(page, wrong)
    assert said.startswith("Not this one:") and "answers" in said, said
    assert status.get_attribute("data-answer") == "wrong"
    kept = score(page)
    assert kept["seen"] == {missed["id"]: "missed"} and kept["streak"] == 0 and kept["rating"] < 1200
    # Try again, right this time: the first answer is the one that counted.
    page.get_by_role("button", name="Try again").click()
    assert click(page, missed["solutions"][0]).startswith("Right:")
    assert score(page) == kept
    page.get_by_role("button", name="Show the solution").click()
    steps = page.locator(".puzzle-line li")
    steps.first.wait_for()
    assert steps.count() == len(missed["line"]) and "(the only winning move)" in steps.first.inner_text()

    # Solved at the first try, by clicking the board.
    solved = first("multiplications")
    open_puzzle(w, page, solved["id"])
    said = click(page, solved["solutions"][0])
    assert said.startswith("Right:"), said
    assert page.get_by_role("button", name="Try again").is_hidden()
    after = score(page)
    assert after["seen"][solved["id"]] == "solved" and after["streak"] == 1 and after["rating"] > kept["rating"]
    assert "Streak: 1" in page.locator(".puzzle-score").inner_text()


def test_the_puzzle_of_the_day_and_a_missing_one(w: Watched, page: Page) -> None:
    go(w, "puzzle=today", wait=True)
    page.locator("section.puzzle[data-puzzle]").wait_for()
    assert page.locator("section.puzzle").get_attribute("data-puzzle") in {p["id"] for p in PUZZLES}
    go(w, "puzzle=nonesuch", wait=True)
    assert "There is no puzzle" in page.locator("section.puzzle [role=status]").inner_text()
