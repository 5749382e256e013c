"""axe-core finds nothing wrong, at any impact level, and no `null`,
`undefined`, `NaN` or `[object Object]` shows as text, on every screen a player
meets: the home page, each game's setup, each board at the start, in the
middle and at the end, the hot-seat screens, the dialogs, the share panel, a
broken link, a game against the computer, a puzzle, and the embed's poster
and game.

Each screen is checked in three looks: light and dark colour schemes at
desktop width, and light at a phone's 390 px (where the layout changes).
One page (one engine start) serves the whole module; games are opened by
changing the fragment, as a shared link does. Positions come from the Python
engine: a seeded random game of each kind, with its default options.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
import quetgames
from playwright.sync_api import Browser, Page

from .axe import assert_clean, describe, stray_words, violations
from .harness import DESKTOP, LOAD_TIMEOUT_MS, READY, Watched, go, open_record, random_game, shoot, watched_page

ROOT = Path(__file__).resolve().parent.parent

PHONE_390 = {"width": 390, "height": 844}
LOOKS = (("light", DESKTOP), ("dark", DESKTOP), ("light", PHONE_390))
GAMES = list(quetgames.GAMES)


def check(page: Page, where: str, *, looks=LOOKS) -> None:
    """No axe violation on the screen as it is, in every look, and no stray
    word; all looks are checked before failing, so one run names every problem."""
    problems = []
    stray = stray_words(page)
    if stray:
        problems.append(f"{where}: a missing value or an object shown as text:\n  " + "\n  ".join(stray))
    for scheme, size in looks:
        page.emulate_media(color_scheme=scheme)
        page.set_viewport_size(size)
        found = violations(page)
        if found:
            problems.append(f"{where}, {scheme}, {size['width']} px:\n{describe(found)}")
    page.emulate_media(color_scheme="light")
    page.set_viewport_size(DESKTOP)
    assert not problems, "axe found violations on\n" + "\n".join(problems)



def middle(states: list[quetgames.State]) -> quetgames.State:
    """A position halfway through (between rounds: it holds no secret pick)."""
    return states[len(states) // 2]


# -- the page ---------------------------------------------------------------------------


def test_home_page(w: Watched, page: Page) -> None:
    open_record(w, "")
    check(page, "the home page")


def test_a_puzzle_asked_answered_and_solved(w: Watched, page: Page) -> None:
    import json
    from pathlib import Path

    shipped = json.loads((Path(__file__).resolve().parent.parent / "docs" / "puzzles.json").read_text())["puzzles"]
    for game_id in dict.fromkeys(p["game"] for p in shipped):
        # (a puzzle where all sums is wrong, as before the board opened on a wrong ring of its own)
        puzzle = next(p for p in shipped if p["game"] == game_id and "+" * len(p["solutions"][0]) not in p["solutions"])
        go(w, f"puzzle={puzzle['id']}", wait=True)
        page.locator(f'section.puzzle[data-puzzle="{puzzle["id"]}"]').wait_for()
        check(page, f"a puzzle of {game_id}")
        # a wrong move the board offers (Prime Target's and Nonconformity's puzzles list their wrong moves grouped, not as "others")
        offered = page.locator("#board [data-move]").evaluate_all("els => els.map((e) => e.dataset.move)")
        wrong = next(m for m in offered if m not in puzzle["solutions"])
        page.locator(f'#board [data-move="{wrong}"]').first.focus()
        page.keyboard.press("Enter")
        page.locator("#puzzle-answer[data-answer=wrong]").wait_for()
        page.get_by_role("button", name="Show why").click()  # (the wrong move's line, stepped through)
        page.locator(".puzzle-why[data-step]").wait_for()
        page.get_by_role("button", name="Show the solution").click()
        page.locator(".puzzle-solution .puzzle-line li").first.wait_for()
        check(page, f"a puzzle of {game_id}, answered wrong, shown why, with its solution")


@pytest.mark.parametrize("game_id", GAMES)
def test_setup_screen(w: Watched, page: Page, game_id: str) -> None:
    go(w, f"setup={game_id}")
    page.locator(f'form.setup[data-game="{game_id}"]').wait_for()
    check(page, f"the setup of {game_id}")


@pytest.mark.parametrize("game_id", GAMES)
def test_board_at_start_middle_and_end(w: Watched, page: Page, game_id: str) -> None:
    states = random_game(game_id, seed=GAMES.index(game_id))
    for stage, state in (("start", states[0]), ("middle", middle(states)), ("end", states[-1])):
        open_record(w, state.record)
        if state.is_over:
            page.locator("#summary").wait_for()
        check(page, f"{game_id} at the {stage}")
    shoot(page, f"axe-{game_id}-over")


def test_hot_seat_hand_over_and_secret_pick(w: Watched, page: Page) -> None:
    state = quetgames.new_game("nonconformity", length=3, max_pick=100, starts=(6, 10)).with_seats(["Alice", "Bob"])
    open_record(w, state.record)
    page.locator('.curtain[data-phase="ask"]').wait_for()
    page.get_by_role("button", name="I am Alice: show my choices").click()
    page.locator("#board [data-move]").first.wait_for()
    check(page, "Alice's secret pick")
    page.locator("#board [data-move]").first.click()
    page.locator('.curtain[data-phase="handover"]').wait_for()
    w.wait_ready()
    check(page, "the hand-over to Bob")


def test_a_long_pick_list_in_ranges(w: Watched, page: Page) -> None:
    # default picks up to 1,000: after round 1 hundreds would score, so they come
    # in closed ranges of a hundred (boards/nonconformity.js), one opened here
    state = quetgames.new_game("nonconformity", starts=(12, 18)).with_seats(["Alice", "Bob"])
    state = state.play("24", 0).play("996", 1)  # Alice then scores between 18 and 996: some 650 picks
    open_record(w, state.record)
    page.get_by_role("button", name="I am Alice: show my choices").click()
    page.locator("details.nc-range > summary").nth(1).click()
    page.locator("details.nc-range[open] [data-move]").first.wait_for()
    check(page, "a long list of scoring picks, one range open")


def test_play_by_link_pick_and_seal(w: Watched, page: Page) -> None:
    # not the hot-seat test's game: this device keeps Alice's pick in that one
    state = quetgames.new_game("nonconformity", length=3, max_pick=100, starts=(7, 11)).with_seats(["Alice", "Bob"])
    open_record(w, state.record)
    page.get_by_role("button", name="I am Alice: pick and seal").click()
    page.locator(".seal-banner").wait_for()
    page.locator("#board [data-pick]").first.wait_for()
    check(page, "Alice's pick by link")
    old = w.fragment()
    # (by link a number is selected, then sealed: issue 54)
    page.locator("#board [data-pick]").first.click()
    check(page, "Alice's pick selected")
    page.locator("#board .nc-play[data-move]").click()
    page.locator("#seal-title").wait_for()
    w.wait_ready()
    check(page, "the sealed pick's screen")
    assert w.fragment() != old


def test_dialogs_and_share_panel(w: Watched, page: Page) -> None:
    states = random_game("multiplications", seed=7)
    open_record(w, middle(states).record)
    page.get_by_role("button", name="How to play").click()
    page.locator("dialog.rules-dialog[open]").wait_for()
    check(page, "the How to play dialog")
    page.keyboard.press("Escape")
    page.locator("dialog.rules-dialog[open]").wait_for(state="detached")

    page.get_by_role("button", name="Embed").click()
    page.locator("dialog.embed-builder[open]").wait_for()
    check(page, "the Embed dialog")
    page.keyboard.press("Escape")
    page.locator("dialog.embed-builder[open]").wait_for(state="detached")

    # the share panel, unfolded, after Copy link has said what it did
    page.locator("#share .export summary").click()
    page.locator("#share .copy-link").click()
    page.locator("#share .share-said:not(:empty)").wait_for()
    check(page, "the share panel")


def test_game_against_the_computer_with_a_hint(w: Watched, page: Page) -> None:
    state = quetgames.new_game("enumeration").with_seats(kinds=["human", "greedy"])
    open_record(w, state.record)
    page.locator(".computer-bar").wait_for()
    page.get_by_role("button", name="Hint").click()
    page.locator("#board .hinted").first.wait_for()
    check(page, "a game against the computer, with a hint")


def test_the_analysis_view(w: Watched, page: Page, server: str) -> None:
    """A finished game analysed (few iterations: the view, not the figures),
    then a point of the chart opened: the best move shown at that position."""
    rng = random.Random(3)
    state = quetgames.new_game("enumeration", size=4)
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
    page.goto("about:blank")
    w.goto_ready(f"{server}?analysis-iterations=10#{state.record}")
    page.locator("button.analysis-start").click()
    page.locator(".analysis-chart").wait_for(timeout=60_000)
    check(page, "an analysed game")
    # a move whose best differs from the one played: the best is shown at that position
    moves = quetgames.analyse(state, iterations=10).moves
    ply = next((i for i, m in enumerate(moves) if i > 0 and not m.forced and m.best_move != m.move), 4)
    page.locator(f'.analysis-chart .point[data-ply="{ply}"]').click()
    page.locator(f'.analysis-chart .point[data-ply="{ply}"][aria-current]').wait_for()
    check(page, f"an analysed game stepped back to move {ply}")
    shoot(page, "axe-analysis")


def test_broken_link_and_home_with_saved_games(w: Watched, page: Page) -> None:
    go(w, "q1.zz.nonsense", wait=True)
    page.locator(".link-error").wait_for()
    check(page, "a broken link")
    open_record(w, "")
    page.locator(".saved-games").wait_for()  # the games this module opened are listed
    check(page, "the home page with saved games")


# -- the embed ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def embed(browser: Browser, server: str) -> Iterator[Watched]:
    watched = watched_page(browser, server, viewport=DESKTOP)
    yield watched
    watched.context.close()


@pytest.mark.parametrize(("mode", "theme"), [("play", "auto"), ("replay", "dark")])
def test_embed_poster_and_game(embed: Watched, server: str, mode: str, theme: str) -> None:
    """theme=dark is the embed's own dark palette, whatever the reader's scheme."""
    page = embed.page
    states = random_game("prime-target", seed=3)
    page.goto(f"{server}embed.html?mode={mode}&ply=2&theme={theme}#{middle(states).record}")
    page.locator("#embed-start").wait_for()
    check(page, f"the embed's poster ({mode})")
    page.locator("#embed-start").click()
    page.locator(READY).wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)
    page.locator("#board svg").wait_for()
    check(page, f"the embedded game ({mode})")
    assert embed.errors == []


def test_puzzle_embed(embed: Watched, server: str) -> None:
    """The puzzle embed's poster, then its task, board and answer line."""
    page = embed.page
    puzzle = json.loads((ROOT / "docs" / "puzzles.json").read_text())["puzzles"][0]
    page.goto(f"{server}embed.html?mode=puzzle#{puzzle['id']}")
    page.locator("#embed-start").wait_for()
    check(page, "the puzzle embed's poster")
    page.locator("#embed-start").click()
    page.locator("#puzzle-answer").wait_for()
    page.locator("#board svg, #board [data-move]").first.wait_for()
    check(page, "the embedded puzzle")
    assert embed.errors == []


# -- the check itself -------------------------------------------------------------------


def test_the_check_fails_on_a_known_violation(w: Watched, page: Page) -> None:
    """A page with a nameless button and an image without text: axe must say so,
    naming each rule, its impact and where it is (so the tests above can fail)."""
    open_record(w, "")
    page.evaluate("""() => {
      const b = document.createElement('button'); b.id = 'axe-probe-button';
      const i = document.createElement('img'); i.id = 'axe-probe-img'; i.src = 'icon.svg';
      document.querySelector('main').append(b, i);
    }""")
    try:
        with pytest.raises(AssertionError) as failed:
            assert_clean(page, "a page with planted faults")
        text = str(failed.value)
        assert "button-name [critical]" in text and "#axe-probe-button" in text
        assert "image-alt [critical]" in text and "#axe-probe-img" in text
    finally:
        page.evaluate("() => { for (const id of ['axe-probe-button', 'axe-probe-img']) document.getElementById(id)?.remove(); }")


def test_the_check_fails_on_a_stray_null(w: Watched, page: Page) -> None:
    """A `null` in a paragraph and an `undefined` in a button's name: named, with where."""
    open_record(w, "")
    page.evaluate("""() => {
      const p = document.createElement('p'); p.id = 'stray-probe'; p.textContent = 'Score: null';
      const b = document.createElement('button'); b.id = 'stray-probe-button'; b.textContent = 'Go';
      b.setAttribute('aria-label', 'Open undefined');
      document.querySelector('main').append(p, b);
    }""")
    try:
        with pytest.raises(AssertionError) as failed:
            check(page, "a page with planted words", looks=LOOKS[:1])
        text = str(failed.value)
        assert "p: Score: null" in text and "button aria-label: Open undefined" in text, text
    finally:
        page.evaluate("() => { for (const id of ['stray-probe', 'stray-probe-button']) document.getElementById(id)?.remove(); }")
    assert stray_words(page) == []


def test_a_missing_axe_fails_in_words(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    """Without node_modules/axe-core the checks fail and say how to install it
    (CI installs it with npm ci, so its absence must never pass as a skip)."""
    from . import axe

    monkeypatch.setattr(axe, "AXE_JS", tmp_path / "node_modules" / "axe-core" / "axe.min.js")
    monkeypatch.setattr(axe, "ROOT", tmp_path)
    axe.axe_source.cache_clear()
    try:
        with pytest.raises(AssertionError, match=r"axe-core is not installed .*npm ci --ignore-scripts"):
            axe.axe_source()
    finally:
        axe.axe_source.cache_clear()


def test_axe_never_ships_in_dist(dist) -> None:
    """axe-core is a test tool: no file of dist/ is it or holds it."""
    shipped = [p for p in dist.rglob("*") if p.is_file()]
    assert shipped
    named = [p for p in shipped if "axe" in p.name.lower()]
    holding = [p for p in shipped if p.suffix in {".js", ".mjs", ".html", ".json"}
               and b"Deque Systems" in p.read_bytes()]
    assert named == [] and holding == [], (named, holding)
