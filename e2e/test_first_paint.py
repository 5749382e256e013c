"""Useful before Python arrives: on a first visit over a slow line the game
list, the setup screens, the rules and a linked game's name and players are
there at once, drawn from the engine's catalog in build.json, while the engine
downloads; a Start pressed meanwhile waits and then starts the game.

Pyodide's downloads are held back with page.route (by folder and by kind, not
by exact name, since those names change), so the engine cannot be ready while
the page is looked at; then they are let go and the page carries on. Expected
names, records and messages come from the Python engine in py/.
"""

from __future__ import annotations

import random
import re

import quetgames
from playwright.sync_api import Page, Route

from .harness import ARTIFACTS, DESKTOP, PHONE, Watched, is_new_game_of
from .test_saves import hostile_fragments

# Everything Pyodide fetches: its folder, and (should the files move) its kinds.
PYODIDE = ("**/pyodide/**", "**/*.wasm*", "**/python_stdlib*")

# Every value <html data-engine> takes, from the first script on.
RECORD_ENGINE_STATES = """
window.__engineStates = [];
new MutationObserver(() => {
  const seen = window.__engineStates, state = document.documentElement.dataset.engine;
  if (seen.at(-1) !== state) seen.push(state);
}).observe(document, {subtree: true, childList: true, attributes: true});
"""


class Held:
    """Pyodide's requests, kept waiting until release() (later ones then pass)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.routes: list[Route] = []
        self.released = False
        for pattern in PYODIDE:
            page.route(pattern, self._hold)

    def _hold(self, route: Route) -> None:
        if self.released:
            route.continue_()
        else:
            self.routes.append(route)

    def wait_for_one(self) -> None:
        """Until the engine has asked for at least one file (so holding it is what keeps it back)."""
        if not self.routes:
            self.page.wait_for_event("request", lambda r: "/pyodide/" in r.url or ".wasm" in r.url or "python_stdlib" in r.url,
                                     timeout=20_000)

    def release(self) -> None:
        self.released = True
        while self.routes:
            self.routes.pop(0).continue_()


def shoot(page: Page, name: str) -> None:
    """The screen at phone and desktop size, into e2e/artifacts/."""
    ARTIFACTS.mkdir(exist_ok=True)
    for size, tag in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page.set_viewport_size(size)
        page.screenshot(path=str(ARTIFACTS / f"first-paint-{name}-{tag}.png"), full_page=True)
    page.set_viewport_size(DESKTOP)


def engine_state(page: Page) -> str:
    return page.evaluate("document.documentElement.dataset.engine")


def states_seen(page: Page) -> list[str]:
    return page.evaluate("window.__engineStates")


def go(page: Page, fragment: str) -> None:
    page.evaluate("f => { location.hash = f; }", fragment)


def plain(text: str) -> str:
    """Light Markdown as the rules dialog shows it: no ** or `, single spaces."""
    return re.sub(r"\s+", " ", text.replace("**", "").replace("`", "")).strip()


def open_held(watched: Watched, url: str) -> Held:
    page = watched.page
    page.add_init_script(RECORD_ENGINE_STATES)
    held = Held(page)
    page.goto(url)
    page.locator("html[data-shell=drawn]").wait_for(state="attached")
    held.wait_for_one()
    return held


def test_games_setup_and_rules_before_the_engine_and_an_early_start_waits(watched: Watched, server: str) -> None:
    page = watched.page
    held = open_held(watched, server)

    # the home page: every game, named and credited, with the download shown in the strip
    cards = page.locator(".game-card")
    assert cards.count() == len(quetgames.GAMES)
    for game in quetgames.GAMES.values():
        card = page.locator(f"#game-{game.id}")
        assert card.locator("h2").inner_text() == game.name
        assert "Invented by Leroy Quet" in card.inner_text()
    strip = page.locator("#loading")
    assert strip.is_visible() and "Loading the game engine" in strip.inner_text()
    assert "Loading the game engine" in strip.locator("[role=status]").text_content()  # said to a screen reader
    assert page.locator("#loading-bar").is_visible()
    assert engine_state(page) == "loading"
    shoot(page, "home")

    # a setup screen with the game's options, and its rules
    game = quetgames.GAMES["prime-target"]
    go(page, f"setup={game.id}")
    form = page.locator(f'form.setup[data-game="{game.id}"]')
    form.wait_for()
    for option in game.describe()["options"]:
        assert form.locator(f'[name="{option["name"]}"]').count() == 1, option["name"]
    page.locator(".setup-screen .rules-button").click()
    dialog = page.locator("dialog.rules-dialog[open]")
    dialog.wait_for()
    assert dialog.locator("h2").inner_text() == f"How to play {game.name}"
    first_paragraph = game.rules.split("\n\n")[0]
    assert plain(first_paragraph) in plain(dialog.inner_text())
    dialog.locator("button.close").click()
    dialog.wait_for(state="detached")

    # Start before the engine is ready: kept, and said so
    form.locator('[name="k"]').fill("3")
    form.locator(".seat-row").first.locator("input").fill("Ada")
    start = form.locator("button.start")
    start.click()
    assert start.inner_text() == "Starting as soon as the engine is ready…"
    wait = page.locator(".setup-screen .engine-wait")
    assert wait.is_visible() and "Loading the game engine" in wait.inner_text()
    wait.locator("[role=status]", has_text="The game starts as soon as the engine is ready").wait_for(state="attached")  # said to a screen reader
    assert wait.locator("progress").is_visible()
    # nothing starts while the engine is held back: not by the next frame, after
    # which anything the click set going would be on screen
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => setTimeout(done)))")
    assert watched.fragment() == f"setup={game.id}"
    assert engine_state(page) == "loading"
    shoot(page, "start-waiting")
    assert "ready" not in states_seen(page)

    # the engine arrives: the game that was asked for starts
    held.release()
    page.locator("section.game").wait_for(timeout=90_000)
    watched.wait_ready()
    want = quetgames.new_game(game.id, players=2, k=3, rays=8).with_seats(["Ada", ""])
    assert is_new_game_of(watched.fragment(), want)
    assert page.locator(".seats .seat-name").all_inner_texts() == ["Ada", "Player 2"]
    assert page.locator("#loading").is_hidden()
    assert watched.errors == []


def test_a_linked_game_shows_its_title_and_players_while_the_engine_loads(watched: Watched, server: str) -> None:
    page = watched.page
    state = quetgames.new_game("multiplications", players=3).with_seats(["Ann", "Bø 🎲", ""])
    rng = random.Random(7)
    for _ in range(2):
        state = state.play(rng.choice(state.legal_moves()))
    broken = "q1.zz.p2.dd"

    # a link the page cannot read for itself: a plain "Opening a game…"
    held = open_held(watched, f"{server}index.html#{broken}")
    opening = page.locator("section.opening")
    assert opening.locator("h1").inner_text() == "Opening a game…"
    assert opening.locator(".engine-wait").is_visible()

    # a good one: the game's page with its name and players, the board's room
    # kept (its position is on its way), and the download in the strip
    go(page, state.record)
    sketch = page.locator('section.game[data-still="words"]')
    sketch.locator("h1", has_text=state.game.name).wait_for()
    assert sketch.locator(".seats .seat-name").all_inner_texts() == ["Ann", "Bø 🎲", "Player 3"]
    assert "the position is on its way" in sketch.locator("#status").inner_text()
    assert page.locator("#loading-bar").is_visible()
    assert page.title() == f"{state.game.name} · Quet Games"
    assert engine_state(page) == "loading"
    shoot(page, "link")
    # its rules can be read meanwhile
    sketch.locator(".rules-button").click()
    page.locator("dialog.rules-dialog[open]").wait_for()
    page.keyboard.press("Escape")
    assert "ready" not in states_seen(page)

    held.release()
    page.locator(f'section.game[data-record="{state.record}"]').wait_for(timeout=90_000)
    watched.wait_ready()
    assert page.locator(".seats .seat-name").all_inner_texts() == ["Ann", "Bø 🎲", "Player 3"]
    assert page.locator("#status").inner_text() == state.view()["status"]
    assert page.locator("section.opening").count() == 0

    # and the link it could not read gets the engine's own verdict
    go(page, broken)
    page.locator(".link-error").wait_for()
    watched.wait_ready()
    try:
        quetgames.load(broken)
    except quetgames.InvalidRecord as refused:
        assert str(refused) in page.locator("#message").inner_text()
    else:
        raise AssertionError(f"{broken} was meant to be refused")
    assert watched.errors == []


def test_an_engine_that_fails_says_so_and_a_waiting_start_goes_on_after_try_again(watched: Watched, server: str) -> None:
    page = watched.page
    page.add_init_script(RECORD_ENGINE_STATES)
    page.route("**/pyodide/**", lambda route: route.abort())
    page.goto(server)
    page.locator("html[data-shell=drawn]").wait_for(state="attached")
    game = quetgames.GAMES["multiplications"]
    page.locator(f'form.new-game[data-game="{game.id}"] button').click()
    page.locator("html[data-engine=error]").wait_for(state="attached", timeout=60_000)

    strip = page.locator("#loading")
    assert "The game engine did not load" in strip.inner_text()
    assert page.locator("#retry").is_visible()
    wait = page.locator(f"#game-{game.id} .engine-wait")
    assert "did not load" in wait.inner_text() and "saved games are safe" in wait.inner_text()
    assert page.locator(".game-card").count() == len(quetgames.GAMES)  # the page is still there
    shoot(page, "engine-failed")

    page.unroute("**/pyodide/**")
    wait.get_by_role("button", name="Try again").click()
    page.locator("section.game").wait_for(timeout=90_000)
    watched.wait_ready()
    assert is_new_game_of(watched.fragment(), quetgames.new_game(game.id))
    assert "ready" not in states_seen(page)[: states_seen(page).index("error")]


def test_reading_a_link_for_display_never_throws_and_agrees_with_the_engine(watched: Watched, server: str) -> None:
    page = watched.page
    open_held(watched, server)  # the engine stays held: this is about the page's own reading
    cases = hostile_fragments() + [quetgames.new_game("prime-target", players=3).with_seats(["Ann", "", "Zoë"], ["human", "strong", "human"]).record]
    read = page.evaluate("""async (cases) => {
        const { linkForDisplay } = await import("./shell/loading.js");
        const games = (await (await fetch("build.json")).json()).games;
        return cases.map((c) => {
            try {
                const link = linkForDisplay(c, games);
                return link && { game: link.game.id, names: link.seats && link.seats.map((s) => s.name) };
            } catch (error) {
                return { threw: String(error) };
            }
        });
    }""", cases)
    named = 0
    for case, shown in zip(cases, read):
        assert not (shown and "threw" in shown), (case[:80], shown)
        try:
            state = quetgames.load(case.partition("~~")[0])
        except quetgames.RulesError:
            continue  # the page may show a name or not; the engine's verdict follows
        assert shown and shown["game"] == state.game.id, case[:80]
        if shown["names"] is not None:
            named += 1
            assert shown["names"] == [state.seat_name(i) for i in range(state.players)], case[:80]
    assert named >= 3
