"""Puzzles (web/features/puzzles.js, web/features/puzzle-board.js, docs/PUZZLES.md), played like
a person: from the home page's entry, one puzzle failed on purpose (the answer
says why, in words, and the solution can be shown) and another solved by
clicking the board; the rating and streak kept on this device move as they
should; the puzzle at the player's level; the puzzle embed (embed.html?
mode=puzzle) written by the puzzle page's Embed dialog and played inside a page
of another site; the puzzle of the day on two dates, and again in another
browser context."""

from __future__ import annotations

import json
from pathlib import Path

from urllib.parse import urlsplit

import pytest
import quetgames.puzzles
from playwright.sync_api import Browser, Frame, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .harness import DESKTOP, LOAD_TIMEOUT_MS, READY, Watched, go, routes, watched_page
from .test_embed import PHONE_HOST, HostPage, host, host_dir, write_host  # noqa: F401  (host and host_dir are fixtures)

PUZZLES = json.loads((Path(__file__).resolve().parent.parent / "docs" / "puzzles.json").read_text())["puzzles"]


def first(game: str) -> dict:
    return next(p for p in PUZZLES if p["game"] == game and len(p["solutions"]) == 1
                and any(o["reply"] for o in p["others"].values()))


def open_puzzle(w: Watched, page: Page, puzzle_id: str) -> None:
    go(w, f"puzzle={puzzle_id}", wait=True)
    page.locator(f'section.puzzle[data-puzzle="{puzzle_id}"]').wait_for()


def click(page: Page | Frame, move: str) -> str:
    """Play `move` on the puzzle's board (the site's page or an embed's frame) and return the answer said."""
    target = page.locator(f'#board [data-move="{move}"]').first
    try:
        target.click(timeout=3000)
    except PlaywrightTimeout:
        target.press("Enter")
    page.locator("#puzzle-answer[data-answer]").wait_for()
    return page.locator("#puzzle-answer").inner_text()


def task_said(page: Page | Frame) -> str:
    """The task, once the live region says it (it is written in after the region is on the page)."""
    page.locator("#puzzle-answer:not(:empty)").wait_for()
    return page.locator("#puzzle-answer").inner_text()


GAME_OF = {p["id"]: p["game"] for p in PUZZLES}
PUZZLES_BY_ID = {p["id"]: p for p in PUZZLES}
GAME_IDS = list(dict.fromkeys(p["game"] for p in PUZZLES))  # in the file's order


def nearest(rating: int, seen: dict, current: str | None = None, game: str | None = None,
            passed: tuple[str, ...] = ()) -> dict:
    """The choice rule of docs/PUZZLES.md ("Which puzzle opens"), written out
    again here: the chosen game's puzzles (or every game's), not the current
    one, neither answered nor opened first, then not answered; for any game,
    the first game after the current one's with a candidate within 200 of the
    rating; the nearest rating, then the file's order."""
    here = next((p for p in PUZZLES if p["id"] == current), None)
    others = [p for p in PUZZLES if p is not here and game in (None, p["game"])]
    unanswered = [p for p in others if p["id"] not in seen]
    pool = [p for p in unanswered if p["id"] not in passed] or unanswered or others
    if game is None:
        start = GAME_IDS.index(here["game"]) + 1 if here else 0
        turn = next((g for g in GAME_IDS[start:] + GAME_IDS[:start]
                     if any(p["game"] == g and abs(p["rating"]["elo"] - rating) <= 200 for p in pool)), None)
        pool = [p for p in pool if turn in (None, p["game"])]
    return min(pool, key=lambda p: abs(p["rating"]["elo"] - rating))


def shown_puzzle(page: Page) -> str:
    page.locator("section.puzzle[data-puzzle]").wait_for()
    return page.locator("section.puzzle").get_attribute("data-puzzle")


def follow(w: Watched, act) -> str:
    """Do `act` (a click or a choice that changes the address) and return the puzzle it opens."""
    before = routes(w)
    act()
    w.page.wait_for_function("n => Number(document.documentElement.dataset.routes || 0) > n", arg=before)
    w.wait_ready()
    return shown_puzzle(w.page)


def elsewhere(w: Watched) -> None:
    """Go to a page that is surely not the one on screen (a puzzle that does not exist, numbered)."""
    go(w, f"puzzle=none-{routes(w)}", wait=True)


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
    # the task and every answer are one live region, read out as they change
    assert status.get_attribute("role") == "status" and status.get_attribute("aria-live") == "polite"
    # the words every puzzle is described with (quetgames.puzzles.task), its own counts in them
    assert f"find a move that keeps the win (1 of {missed['rating']['legal']} moves does)" in task_said(page)
    # the board is styled as in a game: its legend's seat keys are a line high, not drawn at full size
    assert page.locator("#board .grid-legend svg.badge-key").first.bounding_box()["height"] < 40
    wrong = next(m for m, o in missed["others"].items() if o["reply"])
    said = click(page, wrong)
    assert said.startswith("Not this one:") and "In answer, " in said, said
    assert status.get_attribute("data-answer") == "wrong"
    kept = score(page)
    assert kept["seen"] == {missed["id"]: "missed"} and kept["streak"] == 0 and kept["rating"] < 1200
    # Try again, right this time: the first answer is the one that counted.
    page.get_by_role("button", name="Try again").click()
    assert click(page, missed["solutions"][0]).startswith("Right:")
    assert score(page) == kept
    page.get_by_role("button", name="Show the solution").click()
    steps = page.locator(".puzzle-solution .puzzle-line li")
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


def test_a_puzzle_with_several_winning_moves_takes_any_of_them(w: Watched, page: Page) -> None:
    """A puzzle whose win two or three moves keep asks for "a move", not "the
    one move", and takes the last listed solution as right as the first."""
    several = next(p for p in PUZZLES if len(p["solutions"]) > 1)
    open_puzzle(w, page, several["id"])
    task = task_said(page)
    assert quetgames.puzzles.task(len(several["solutions"]), several["rating"]["legal"]) in task, task
    assert click(page, several["solutions"][-1]).startswith("Right:")
    assert page.locator("#puzzle-answer").get_attribute("data-answer") == "right"


def test_the_puzzle_of_the_day_and_a_missing_one(w: Watched, page: Page) -> None:
    go(w, "puzzle=today", wait=True)
    page.locator("section.puzzle[data-puzzle]").wait_for()
    assert page.locator("section.puzzle").get_attribute("data-puzzle") in {p["id"] for p in PUZZLES}
    go(w, "puzzle=nonesuch", wait=True)
    assert "There is no puzzle" in page.locator("section.puzzle [role=status]").inner_text()


def test_the_puzzle_at_the_players_level(w: Watched, page: Page) -> None:
    """The home page's entry opens the unanswered puzzle rated nearest the
    rating kept on this device; Next follows the same rule from there."""
    rating = 1234
    already = nearest(rating, {})  # answered: passed over
    seen = {already["id"]: "solved"}
    page.evaluate("s => localStorage.setItem('quetgames.puzzles', JSON.stringify(s))",
                  {"rating": rating, "streak": 3, "best": 3, "seen": seen})
    elsewhere(w)  # (so that going home is a change of address)
    go(w, "", wait=True)
    entry = page.locator("section.puzzles-entry")
    assert f"rating: {rating}" in entry.inner_text()
    opened = follow(w, lambda: entry.get_by_role("link", name="A puzzle at your level").click())
    expected = nearest(rating, seen)
    assert expected["id"] != already["id"] and opened == expected["id"]
    # Next: the nearest again, in the next game that has one near the rating
    after = nearest(rating, seen, current=expected["id"], passed=(expected["id"],))
    assert after["game"] != expected["game"]
    assert page.locator("#puzzle-next").get_attribute("href") == f"#puzzle={after['id']}"
    assert page.get_by_label("Link to this puzzle").input_value().endswith(f"#puzzle={expected['id']}")
    w.screenshot("puzzle-at-level")


def test_next_moves_on_and_reaches_every_game_from_the_starting_rating(w: Watched, page: Page) -> None:
    """Unanswered, Next opens a puzzle not opened before (it used to swap
    between the same two), and from the starting rating with "Any game" the
    five games come up in five puzzles, each the rule's choice."""
    page.evaluate("() => localStorage.removeItem('quetgames.puzzles')")
    go(w, "puzzle=next", wait=True)
    opened = [shown_puzzle(page)]
    assert page.get_by_label("Puzzles of").input_value() == ""  # any game
    assert opened[0] == nearest(1200, {})["id"]
    for _ in range(len(GAME_IDS) - 1 + 3):
        expected = nearest(1200, {}, current=opened[-1], passed=tuple(opened))
        opened.append(follow(w, lambda: page.locator("#puzzle-next").click()))
        assert opened[-1] == expected["id"]
    assert len(set(opened)) == len(opened), opened  # never back to one already opened
    assert {GAME_OF[i] for i in opened[:len(GAME_IDS)]} == set(GAME_IDS), [GAME_OF[i] for i in opened]
    assert all(abs(next(p for p in PUZZLES if p["id"] == i)["rating"]["elo"] - 1200) <= 200 for i in opened)


@pytest.mark.parametrize("size", [DESKTOP, {"width": 390, "height": 844}], ids=["desktop", "phone"])
def test_choose_the_game_and_next_stays_in_it(w: Watched, page: Page, size: dict) -> None:
    """The puzzle page offers every game and "Any game"; choosing a game opens
    one of its puzzles at once, near the starting rating, Next stays in it
    (new puzzles each time), the choice is kept from puzzle to puzzle, and
    "Any game" turns Next to another game again."""
    page.set_viewport_size(size)
    page.evaluate("() => localStorage.removeItem('quetgames.puzzles')")
    go(w, "puzzle=next", wait=True)
    choice = page.get_by_label("Puzzles of")
    assert choice.locator("option").all_inner_texts()[0] == "Any game"
    assert choice.locator("option").count() == 1 + len(GAME_IDS)
    for game in GAME_IDS:
        current = shown_puzzle(page)
        if GAME_OF[current] == game:  # (already one of its puzzles: Next turns to the game)
            choice.select_option(game)
            page.wait_for_function("g => document.querySelector('#puzzle-game').value === g", arg=game)
        else:
            current = follow(w, lambda: choice.select_option(game))
        assert GAME_OF[current] == game, (game, current)
        assert abs(PUZZLES_BY_ID[current]["rating"]["elo"] - 1200) <= 200
        here = [current]
        for _ in range(2):
            here.append(follow(w, lambda: page.locator("#puzzle-next").click()))
            assert GAME_OF[here[-1]] == game and here[-1] not in here[:-1], here
        assert choice.input_value() == game  # kept from puzzle to puzzle
    w.screenshot(f"puzzle-game-choice-{size['width']}")
    choice.select_option("")
    page.wait_for_function("() => document.querySelector('#puzzle-game').value === ''")
    aimed = page.locator("#puzzle-next").get_attribute("href").split("=", 1)[1]
    assert GAME_OF[aimed] != GAME_IDS[-1]


def test_the_puzzle_embed_from_the_dialog_played_on_another_site(w: Watched, page: Page, browser: Browser, server: str,
                                                                  host: str, host_dir: Path) -> None:
    """The puzzle page's Embed dialog writes the frame and the plain link
    under it; pasted into a page of another site (with a frame for a puzzle
    that does not exist), the reader fails once, is told why, tries again,
    solves it by clicking, and asks for the solution."""
    puzzle = first("enumeration")
    open_puzzle(w, page, puzzle["id"])
    page.get_by_role("button", name="Embed this puzzle").click()
    dialog = page.locator("dialog.embed-builder")
    dialog.get_by_label("Height (px)").fill("720")
    dialog.locator("#embed-code[data-poster=ready]").wait_for()  # (the puzzle's position, for the frame's poster)
    snippet = dialog.locator("#embed-code").input_value()
    app = f"{urlsplit(server).scheme}://{urlsplit(server).netloc}"
    assert f'src="{app}/embed.html?mode=puzzle#{puzzle["id"]}!poster.' in snippet and 'height="720"' in snippet
    assert 'title="A puzzle of Enumeration, a game by Leroy Quet"' in snippet
    assert snippet.endswith(f'<p><a href="{app}/index.html#puzzle={puzzle["id"]}">Try this Enumeration puzzle</a> (a game by Leroy Quet)</p>')
    w.screenshot("puzzle-embed-builder")
    dialog.get_by_role("button", name="Close").click()

    missing = f'<iframe src="{app}/embed.html?mode=puzzle&amp;ply=3#nonesuch" title="A puzzle" width="360" height="300"></iframe>'
    reader = HostPage(browser, DESKTOP)
    try:
        reader.page.goto(host + write_host(host_dir, "puzzle", snippet + "\n" + missing))
        # a puzzle id that is in no puzzle file: words at once, no engine
        bad = reader.wait_frame("error", 1)
        assert "There is no puzzle “nonesuch” here." in bad.locator(".embed-fatal").inner_text()
        frame = reader.wait_frame("idle", 0)
        assert frame.locator("#poster-title").inner_text() == "Puzzle: Enumeration"
        assert f"Puzzle rating {puzzle['rating']['elo']}" in frame.locator(".poster-what").inner_text()
        described = quetgames.puzzles.task(len(puzzle["solutions"]), puzzle["rating"]["legal"])
        assert described in frame.locator(".poster-what").inner_text()  # the poster says what the page says
        assert reader.pyodide_requests() == []
        frame.locator("#embed-start").click()
        frame.locator(READY).wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)
        frame.locator(f'.embed-puzzle[data-puzzle="{puzzle["id"]}"]').wait_for()
        assert "invented by Leroy Quet" in frame.locator(".embed-puzzle").inner_text()
        assert described in task_said(frame)
        assert frame.locator("#open-full").get_attribute("href") == f"{app}/index.html#puzzle={puzzle['id']}"

        wrong = next(m for m, o in puzzle["others"].items() if o["reply"])
        said = click(frame, wrong)
        assert said.startswith("Not this one:") and "In answer, " in said, said
        reader.shoot("puzzle-wrong")
        frame.get_by_role("button", name="Try again").click()
        assert described in task_said(frame)
        assert click(frame, puzzle["solutions"][0]).startswith("Right:")
        assert frame.locator("#puzzle-answer").get_attribute("data-answer") == "right"
        frame.get_by_role("button", name="Show the solution").click()
        steps = frame.locator(".puzzle-solution .puzzle-line li")
        steps.first.wait_for()
        assert steps.count() == len(puzzle["line"])
        reader.shoot("puzzle-solved")
        # at phone width (the frame is 360 px): the board fits, nothing scrolls sideways
        reader.page.set_viewport_size(PHONE_HOST)
        frame.wait_for_function("() => document.documentElement.clientWidth === 360")
        sizes = frame.evaluate("""() => ({scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth,
            board: document.querySelector('#board svg').getBoundingClientRect().right})""")
        assert sizes["scroll"] <= sizes["client"] and sizes["board"] <= sizes["client"], sizes
        reader.shoot("puzzle-phone")
        assert [e for e in reader.errors if e.startswith("uncaught")] == []
    finally:
        reader.close()


def test_the_puzzle_of_the_day_on_two_dates(w: Watched, page: Page, browser: Browser, server: str) -> None:
    """The date alone chooses: two dates give two puzzles, and a second
    browser context on the first date gets the same one. (Last in the
    module: it leaves the module page's clock fixed.)"""
    ids = [p["id"] for p in PUZZLES]
    first_day, second_day = "2026-03-01", "2026-03-02"
    expected = {day: quetgames.puzzles.puzzle_of_the_day(ids, day) for day in (first_day, second_day)}
    assert expected[first_day] != expected[second_day]

    def today_on(watched: Watched, day: str) -> str:
        watched.page.clock.set_fixed_time(f"{day}T10:00:00")
        elsewhere(watched)  # (so that today's is a change of address)
        go(watched, "puzzle=today", wait=True)
        return watched.page.locator("section.puzzle[data-puzzle]").get_attribute("data-puzzle")

    assert today_on(w, first_day) == expected[first_day]
    assert today_on(w, second_day) == expected[second_day]
    other = watched_page(browser, server)
    try:
        other.page.clock.set_fixed_time(f"{first_day}T23:30:00")
        other.goto_ready(f"{server}index.html#puzzle=today")
        other.page.locator("section.puzzle[data-puzzle]").wait_for()
        assert other.page.locator("section.puzzle").get_attribute("data-puzzle") == expected[first_day]
        assert other.errors == []
    finally:
        other.context.close()


@pytest.mark.parametrize("which", ["next", "today"])
def test_a_chosen_puzzle_keeps_its_place_and_its_answer_across_a_reload(w: Watched, page: Page, which: str) -> None:
    """#puzzle=next and #puzzle=today become the puzzle's own id once chosen, so
    a reload shows the same puzzle, answered as it was; the day's says so."""
    page.evaluate("() => localStorage.removeItem('quetgames.puzzles')")
    elsewhere(w)
    go(w, f"puzzle={which}", wait=True)
    section = page.locator("section.puzzle[data-puzzle]")
    section.wait_for()
    chosen = section.get_attribute("data-puzzle")
    page.wait_for_function("id => decodeURIComponent(location.hash.slice(1)) === 'puzzle=' + id", arg=chosen)
    title = page.locator("section.puzzle h1").inner_text()
    assert title.startswith("Puzzle of the day") == (which == "today"), title
    assert (section.get_attribute("data-day") == "today") == (which == "today")
    puzzle = next(p for p in PUZZLES if p["id"] == chosen)
    move = puzzle["solutions"][0]
    task_said(page)
    said = click(page, move)
    page.reload()
    w.wait_ready()
    page.locator(f'section.puzzle[data-puzzle="{chosen}"]').wait_for()
    earlier = page.locator(".puzzle-earlier")
    assert earlier.get_attribute("data-answered") == "right"
    assert f"with {move}" in earlier.inner_text() and said.split(".")[0] in earlier.inner_text(), (earlier.inner_text(), said)
    assert score(page)["seen"] == {chosen: "solved"}
    w.screenshot(f"puzzle-answered-{which}")


@pytest.mark.parametrize("size", [DESKTOP, {"width": 1366, "height": 768}], ids=["1280x800", "1366x768"])
def test_the_home_pages_puzzles_are_on_the_first_screen(w: Watched, page: Page, size: dict) -> None:
    """The home page's Puzzles (its heading, what a puzzle is and both links)
    are on the first screen of a laptop: they started at y = 883 at 1280 x 800,
    under the five games' cards."""
    page.set_viewport_size(size)
    elsewhere(w)
    go(w, "", wait=True)
    entry = page.locator("section.puzzles-entry")
    entry.wait_for()
    assert page.evaluate("() => window.scrollY") == 0
    box = entry.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], box
    for name in ("A puzzle at your level", "Puzzle of the day"):
        link = entry.get_by_role("link", name=name).bounding_box()
        assert link["y"] + link["height"] <= size["height"], (name, link)
    assert "find a move that keeps the win" in entry.inner_text()
    w.screenshot(f"home-puzzles-{size['width']}")


def test_a_wrong_answer_is_shown_why_step_by_step(w: Watched, page: Page) -> None:
    """After a wrong move, Show why plays the engine's line on the board one
    step at a time: the move, the reply, and what follows to the end."""
    puzzle = first("convoluted-coprimality")
    wrong = next(m for m, o in puzzle["others"].items() if o["reply"])
    line = quetgames.puzzles.why(puzzle, wrong)
    assert len(line["steps"]) > 2
    open_puzzle(w, page, puzzle["id"])
    assert page.get_by_role("button", name="Show why").is_hidden()  # (nothing to show before a wrong move)
    click(page, wrong)
    page.get_by_role("button", name="Show why").click()
    why = page.locator(".puzzle-why")
    boards = []
    for n, step in enumerate(line["steps"], start=1):
        if n > 1:
            why.get_by_role("button", name="Next step").click()
        page.wait_for_function("n => document.querySelector('.puzzle-why')?.dataset.step === String(n)", arg=n)
        said = why.locator(".puzzle-why-step").inner_text()
        assert said.startswith(f"Step {n} of {len(line['steps'])}: {step['words']}."), said
        boards.append(page.locator("#board").inner_html())
        if n == 2:
            w.screenshot("puzzle-why")
    assert len(set(boards)) == len(boards)  # each step drawn anew on the board
    assert line["end"] in said and why.get_by_role("button", name="Next step").is_disabled()
    why.get_by_role("button", name="Back").click()
    page.wait_for_function("n => document.querySelector('.puzzle-why').dataset.step === String(n)", arg=len(boards) - 1)
    assert page.locator("#board").inner_html() == boards[-2]
    page.get_by_role("button", name="Try again").click()
    assert why.is_hidden() and page.get_by_role("button", name="Show why").is_hidden()


@pytest.mark.parametrize("size", [{"width": 360, "height": 740}, {"width": 390, "height": 844}], ids=["360x740", "390x844"])
def test_a_wrong_answers_line_steps_with_the_board_in_view_on_a_phone(w: Watched, page: Page, size: dict) -> None:
    """On a phone the step and its buttons sit just under the board: both are
    on screen while stepping, and the page does not scroll by itself."""
    page.set_viewport_size(size)
    puzzle = first("convoluted-coprimality")
    wrong = next(m for m, o in puzzle["others"].items() if o["reply"])
    elsewhere(w)  # (the same puzzle may be on screen from the test before)
    open_puzzle(w, page, puzzle["id"])
    click(page, wrong)
    page.get_by_role("button", name="Show why").click()
    page.locator(".puzzle-why[data-step='1']").wait_for()
    # a person scrolls the board's top to the screen's top: the step's buttons are on screen with it
    page.evaluate("() => window.scrollTo(0, scrollY + document.querySelector('#board').getBoundingClientRect().top)")
    scrolled = page.evaluate("() => scrollY")
    forward = page.locator(".puzzle-why").get_by_role("button", name="Next step")
    box = forward.bounding_box()
    assert box["y"] + box["height"] <= size["height"], box
    forward.click()
    page.locator(".puzzle-why[data-step='2']").wait_for()
    assert page.evaluate("() => scrollY") == scrolled  # nothing scrolled by itself
    board = page.locator("#board").bounding_box()
    step = page.locator(".puzzle-why-step").bounding_box()
    assert abs(board["y"]) < 1 and step["y"] >= board["y"] + board["height"] - 1, (board, step)  # under the board, not over it
    w.screenshot(f"puzzle-why-{size['width']}")
