"""What the setup screen and "How to play" say of how fair a game's settings
are (issue 14's balance half), as a person changing the options sees it.

Every expected figure is looked up in docs/balance.json by the Python engine
(quetgames.balance.lookup, on its normalised options), never restated here.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from playwright.sync_api import Locator, Page, expect
import quetgames
from quetgames.balance import lookup

from .harness import ARTIFACTS, DESKTOP, PHONE, ROOT, Watched, go, open_record, shoot

REPORT = json.loads((ROOT / "docs" / "balance.json").read_text())
CC = "convoluted-coprimality"


def pct(x: float) -> str:
    return f"{math.floor(x * 100 + 0.5)}%"  # as the page rounds (half up)


def setup(w: Watched, game_id: str) -> Locator:
    go(w, f"setup={game_id}")
    form = w.page.locator(f'form.setup[data-game="{game_id}"]')
    form.wait_for()
    return form


def line(form: Locator) -> Locator:
    return form.locator(".balance-line")


def expect_proved(form: Locator, game_id: str, options: dict) -> None:
    row = lookup(REPORT, game_id, options)
    assert row is not None and row["proved"] in (0.0, 1.0), (options, row)
    winner = 1 if row["proved"] == 1.0 else 2
    expect(line(form)).to_have_attribute("data-known", "solved")
    expect(line(form)).to_contain_text(f"Solved: Player {winner} can always win")


def expect_measured(form: Locator, game_id: str, options: dict) -> None:
    row = lookup(REPORT, game_id, options)
    assert row is not None and row["games"] > 0, (options, row)
    expect(line(form)).to_have_attribute("data-known", "measured")
    expect(line(form)).to_contain_text(
        f"Player 1 scores {pct(row['share'])} under strong play "
        f"(95% interval {pct(row['low'])} to {pct(row['high'])}, {row['games']} games); a fair share is {pct(row['fair'])}.")


def expect_none(form: Locator) -> None:
    expect(line(form)).to_have_attribute("data-known", "none")
    expect(line(form)).to_contain_text("Balance: No figures for these settings yet.")


def test_coprimality_defaults_are_solved_and_the_line_follows_the_size(w: Watched, page: Page) -> None:
    form = setup(w, CC)
    # the default 2 seats on 12 × 12: a proved win for Player 2
    assert lookup(REPORT, CC, {})["proved"] == 0.0
    expect_proved(form, CC, {})
    expect(line(form)).to_contain_text("Solved: Player 2 can always win")
    shoot(page, "balance-setup-solved")
    # a size Player 1 wins
    form.locator('[name="size"]').fill("5")
    expect_proved(form, CC, {"size": 5})
    expect(line(form)).to_contain_text("Solved: Player 1 can always win")
    # a size nobody measured
    form.locator('[name="size"]').fill("13")
    assert lookup(REPORT, CC, {"size": 13}) is None
    expect_none(form)
    # emptied, the size falls back to its default, as the engine would start it
    form.locator('[name="size"]').fill("")
    expect_proved(form, CC, {})


def test_a_row_measured_with_some_seats_applies_to_those_seats_only(w: Watched, page: Page) -> None:
    form = setup(w, CC)
    form.locator('[name="size"]').fill("8")
    expect_proved(form, CC, {"size": 8})  # two seats: solved
    form.locator('[name="players"]').fill("3")
    expect_measured(form, CC, {"players": 3, "size": 8})  # three seats on the same grid: played
    expect(form.locator(".seat-row")).to_have_count(3)
    shoot(page, "balance-setup-measured")
    form.locator('[name="players"]').fill("6")
    assert lookup(REPORT, CC, {"players": 6, "size": 8}) is None
    expect_none(form)
    form.locator('[name="players"]').fill("4")
    expect_measured(form, CC, {"players": 4, "size": 8})
    form.locator('[name="max_rounds"]').fill("2")
    expect_none(form)  # every measured row has max_rounds 3 at 4 seats


def test_a_hidden_option_counts_as_the_engine_counts_it(w: Watched, page: Page) -> None:
    # Enumeration's solitaire target is left out for two players, by the form
    # as by the engine: a target chosen, then hidden, does not hide the figures.
    form = setup(w, "enumeration")
    expect_measured(form, "enumeration", {})
    form.locator('[name="players"]').fill("1")
    form.locator('[name="goal"]').select_option("parity")
    form.locator('[name="target"]').select_option("even")
    expect_none(form)
    form.locator('[name="players"]').fill("2")
    expect(form.locator('[data-option="target"]')).to_be_hidden()
    expect_measured(form, "enumeration", {"players": 2, "goal": "parity", "target": "even"})
    # and a choice the figures cover
    form.locator('[name="size"]').fill("4")
    expect_measured(form, "enumeration", {"goal": "parity", "size": 4})
    expect(line(form)).to_contain_text("Player 1 favoured")


def test_drawn_starts_have_figures_and_a_chosen_start_has_none(w: Watched, page: Page) -> None:
    form = setup(w, "nonconformity")
    expect_measured(form, "nonconformity", {})
    expect(line(form)).to_contain_text("No clear bias")
    expect(line(form)).to_contain_text("ended in a shared win")
    form.locator('[name="seed"]').fill("7")
    assert lookup(REPORT, "nonconformity", {"seed": 7}) is None
    expect_none(form)
    form.locator('[name="seed"]').fill("")
    form.locator('[name="same_start"]').check()
    expect_measured(form, "nonconformity", {"same_start": True})


def fairest_names(game_id: str) -> list[str]:
    """The fairest settings as the help names them: the options that differ
    from the defaults (seats apart), then the seat count."""
    defaults = quetgames_defaults(game_id)
    words = {o.name: o.short or o.name.replace("_", " ") for o in quetgames.GAMES[game_id].options}
    names = []
    for pick in REPORT["fairest"][game_id]:
        row = lookup(REPORT, game_id, pick["options"])
        differ = [words[k] if v is True else f"{words[k]} {v}"
                  for k, v in pick["options"].items() if k != "players" and v != defaults[k]]
        seats = "1 player" if row["players"] == 1 else f"{row['players']} players"
        names.append(f"{', '.join(differ) or 'the defaults'}, {seats}")
    return names


def quetgames_defaults(game_id: str) -> dict:
    import quetgames

    return quetgames.GAMES[game_id].defaults


def test_how_to_play_names_the_fairest_settings(w: Watched, page: Page) -> None:
    setup(w, CC)
    page.locator(".setup-screen .rules-button").click()
    section = page.locator("dialog.rules-dialog[open] .balance-help")
    expect(section).to_be_visible()
    expect(section.locator("h3")).to_have_text("Which settings are fair")
    names = fairest_names(CC)
    assert names[0] == "grid side 8, 3 players"
    expect(section.locator(".balance-fairest li strong")).to_have_text(names)
    rows = [r for r in REPORT["rows"] if r["game"] == CC]
    solved = sum(1 for r in rows if r["proved"] is not None)
    expect(section).to_contain_text(f"{solved} of the {len(rows)} settings are solved")
    # every figure, one click away
    section.locator(".balance-all summary").click()
    expect(section.locator(".balance-all tbody tr")).to_have_count(len(rows))
    expect(section.locator(".balance-all tbody tr").first).to_contain_text("Solved: Player 2 can always win")
    # where the figures come from, in words: no source-file path as text (issue 46)
    expect(section).to_contain_text("many games between computer players")
    expect(section).not_to_contain_text("docs/BALANCE.md")
    section.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "balance-help-desktop.png"))
    page.set_viewport_size(PHONE)
    section.locator(".balance-all tbody tr").last.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "balance-help-table-phone.png"))
    page.set_viewport_size(DESKTOP)
    page.keyboard.press("Escape")
    expect(page.locator("dialog.rules-dialog")).to_have_count(0)


def test_the_game_page_help_names_them_too(w: Watched, page: Page) -> None:
    import quetgames

    open_record(w, quetgames.new_game("prime-target").record)
    page.locator("section.game .rules-button").click()
    section = page.locator("dialog.rules-dialog[open] .balance-help")
    expect(section.locator(".balance-fairest li strong")).to_have_text(fairest_names("prime-target"))
    page.keyboard.press("Escape")


def test_the_setup_lines_button_opens_the_help_at_the_fairest_settings(w: Watched, page: Page) -> None:
    form = setup(w, "enumeration")
    page.set_viewport_size(PHONE)
    form.get_by_role("button", name="Fairest settings").click()
    section = page.locator("dialog.rules-dialog[open] .balance-help")
    expect(section.locator("h3")).to_be_in_viewport()
    expect(section.locator(".balance-fairest li strong")).to_have_text(fairest_names("enumeration"))
    page.screenshot(path=str(ARTIFACTS / "balance-help-fairest-phone.png"))
    page.keyboard.press("Escape")
    expect(page.locator("dialog.rules-dialog")).to_have_count(0)


def test_every_row_is_found_by_its_own_options_and_seats_only(w: Watched, page: Page, dist: Path) -> None:
    # the page's matching, over every row of the run: a row's full options
    # find it, one seat more or less does not, nor a value no row has
    misses = page.evaluate("""async () => {
      const { withBalance, findRow } = await import("./features/balance.js");
      const info = await (await fetch("build.json")).json();
      const misses = [];
      for (const game of withBalance(info.games, info.balance)) {
        for (const [i, row] of (game.balance?.rows ?? []).entries()) {
          const values = Object.fromEntries(Object.entries(row.options).filter(([, v]) => v !== null));
          if (findRow(game, values, row.seats) !== row) misses.push(`${game.id} row ${i}`);
          for (const seats of [row.seats - 1, row.seats + 1]) {
            if (findRow(game, values, seats) !== null) misses.push(`${game.id} row ${i} with ${seats} seats`);
          }
          const first = game.options.find((o) => o.kind === "int" && o.name !== "players");
          if (findRow(game, { ...values, [first.name]: -1 }, row.seats) !== null) misses.push(`${game.id} row ${i}, ${first.name} -1`);
        }
      }
      return misses;
    }""")
    assert misses == []
    assert sum(len(g["rows"]) for g in json.loads((dist / "build.json").read_text())["balance"]["games"].values()) \
        == len(REPORT["rows"])
