""""How to play", read like a newcomer would: for every game the dialog names
Leroy Quet, says how to read the rules (squares, winning, ties), shows no
Markdown markup, keeps Enumeration's example grid on its own lines, and
draws each worked example's position as a small board from the engine's view.
"""

from __future__ import annotations

import re

import pytest
import quetgames
from playwright.sync_api import Page

from .harness import ARTIFACTS, Watched, go, open_record, shoot

DIALOG = "dialog.rules-dialog[open]"


def open_help_from_setup(w: Watched, page: Page, game_id: str):
    go(w, f"setup={game_id}")
    page.locator(f'form.setup[data-game="{game_id}"]').wait_for()
    page.locator(".setup-screen .rules-button").click()
    dialog = page.locator(DIALOG)
    dialog.wait_for()
    return dialog


def close(page: Page) -> None:
    page.keyboard.press("Escape")
    page.locator(DIALOG).wait_for(state="detached")


@pytest.mark.parametrize("game_id", list(quetgames.GAMES))
def test_how_to_play_reads_well_and_draws_the_example(w: Watched, page: Page, game_id: str) -> None:
    game = quetgames.GAMES[game_id]
    dialog = open_help_from_setup(w, page, game_id)
    text = dialog.inner_text()
    assert "invented by Leroy Quet" in text
    assert "The highest score wins" in text and "share the win" in text
    assert ("a1 is the upper-left square" in text) == game.named_squares
    # no raw Markdown: no backticks, no ** runs, no fences
    assert "`" not in text and "**" not in text, re.findall(r".{20}[`*].{20}", text)[:3]
    # the settings, in the setup screen's words
    assert "Settings." in text and "unless chosen otherwise" in text
    # every worked example drawn as a still picture named by its caption
    figures = dialog.locator("figure.rules-example")
    assert figures.count() == len(game.examples) >= 1
    for i, example in enumerate(game.examples):
        figure = figures.nth(i)
        picture = figure.locator('svg[role="img"]')
        picture.wait_for()
        assert picture.count() == 1
        assert figure.locator("figcaption").inner_text() == example.caption
        labelled_by = picture.get_attribute("aria-labelledby")
        assert figure.locator(f"figcaption#{labelled_by}").count() == 1
        assert picture.evaluate("el => el.getBoundingClientRect().width") > 100
        # a still picture: nothing in it can be clicked or reached by Tab
        assert figure.locator("[data-move], [data-try], [tabindex]").count() == 0
    # the figures come right after the worked example, before any later heading
    after_example = dialog.locator("p:has(strong:text-is('Example.')) ~ figure.rules-example")
    assert after_example.count() == len(game.examples)
    page.set_viewport_size({"width": 1280, "height": 2600})
    dialog.screenshot(path=str(ARTIFACTS / f"help-{game_id}-whole.png"))
    shoot(page, f"help-{game_id}")
    close(page)


def test_enumeration_example_grid_keeps_its_lines(w: Watched, page: Page) -> None:
    dialog = open_help_from_setup(w, page, "enumeration")
    block = dialog.locator("pre")
    assert block.count() == 1
    lines = block.inner_text().splitlines()
    assert lines[:2] == ["1 2 3 4 5 6", "2 0 1 1 3 2"] and len(lines) == 6
    # laid out on several lines on screen too, not flattened onto one
    assert block.evaluate("el => el.getBoundingClientRect().height") > 5 * block.evaluate(
        "el => parseFloat(getComputedStyle(el).lineHeight) || 16") * 0.9
    # the example board shows the two counts of f3 that the text talks about
    picture = dialog.locator('figure.rules-example svg[role="img"]')
    picture.wait_for()
    assert "↑1" in picture.text_content() and "←3" in picture.text_content()
    close(page)


def test_how_to_play_from_a_game_page(w: Watched, page: Page) -> None:
    """The game page's button opens the same help, and the game is left as it was."""
    state = quetgames.new_game("convoluted-coprimality", size=5).play("b1")
    open_record(w, state.record)
    board_before = page.locator("#view .quet-board").first.inner_html()
    page.locator(".game-head .rules-button").click()
    dialog = page.locator(DIALOG)
    dialog.wait_for()
    assert "invented by Leroy Quet" in dialog.inner_text()
    dialog.locator('figure.rules-example svg[role="img"]').wait_for()
    close(page)
    assert w.fragment() == state.record
    assert page.locator("#view .quet-board").first.inner_html() == board_before


def test_example_boards_in_the_dark_colour_scheme(w: Watched, page: Page) -> None:
    """The drawn examples take the dark scheme's colours too (looked at in the screenshots)."""
    page.emulate_media(color_scheme="dark")
    try:
        for game_id in ("prime-target", "enumeration"):
            dialog = open_help_from_setup(w, page, game_id)
            figure = dialog.locator("figure.rules-example").first
            figure.locator('svg[role="img"]').wait_for()
            figure.scroll_into_view_if_needed()
            figure.screenshot(path=str(ARTIFACTS / f"help-{game_id}-example-dark.png"))
            # numbers are drawn in a light ink on the dark sheet
            ink = figure.locator("svg text").first.evaluate("el => getComputedStyle(el).fill")
            assert ink not in ("rgb(0, 0, 0)", "rgb(29, 35, 48)"), ink
            close(page)
    finally:
        page.emulate_media(color_scheme="light")
