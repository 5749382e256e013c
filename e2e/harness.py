"""What the browser tests share: where things are, a watched page, and the
moves of a person at the game page (open a record, click a move, wait for
the fragment to follow)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import random
from urllib.parse import urlsplit

import quetgames
from playwright.sync_api import Browser, BrowserContext, Frame, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
ARTIFACTS = HERE / "artifacts"
LOAD_TIMEOUT_MS = 90_000  # a cold Pyodide start is ~6 s here; generous for slow CI machines
SUB_PATH = "/some/sub/path/"  # dist/ is also served here, to prove relative URLs hold
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}


# The page answers moves again and its address is the game's (after a move
# the address is written once the new board is painted: <html data-address>).
READY = "html[data-engine=ready]:not([data-address])"


def fragment_of(where: Page | Frame) -> str:
    """The address's fragment in a page or frame, once a move's address is written."""
    where.locator("html:not([data-address])").wait_for(state="attached")
    return where.evaluate("() => decodeURIComponent(location.hash.slice(1))")


@dataclass
class Watched:
    """A page with everything it did written down."""

    page: Page
    context: BrowserContext
    origin: str
    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # uncaught exceptions and console errors

    def goto_ready(self, url: str) -> None:
        self.page.goto(url)
        self.wait_ready()

    def wait_ready(self) -> None:
        self.page.locator(READY).wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)

    def off_site(self) -> list[str]:
        """Requests that left the site's origin. A blob: URL of the origin is made
        in the browser from bytes it already has (the worker imports Pyodide's
        expanded script that way), so it stays."""
        return [url for url in self.requests
                if not url.startswith((self.origin + "/", f"blob:{self.origin}/"))]

    def fragment(self) -> str:
        return fragment_of(self.page)

    def screenshot(self, name: str) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path


def watched_page(browser: Browser, server: str, *, viewport: dict = DESKTOP, timeout_ms: int = 20_000, **context_args) -> Watched:
    """A page in a fresh context, with its uncaught exceptions and console
    errors written down in `errors` (tests assert it stays empty)."""
    context = browser.new_context(viewport=viewport, **context_args)
    page = context.new_page()
    watched = Watched(page, context, origin=f"{urlsplit(server).scheme}://{urlsplit(server).netloc}")
    page.on("pageerror", lambda exc: watched.errors.append(f"uncaught: {exc}"))
    page.on("console", lambda msg: msg.type == "error" and watched.errors.append(f"console: {msg.text}"))
    page.set_default_timeout(timeout_ms)
    return watched


# -- acting like a person on the game page ---------------------------------------------

CONFIRM_OPEN = "dialog.confirm[open]"


def shoot(page: Page, name: str) -> None:
    """The same screen at phone and desktop size, into e2e/artifacts/<name>-phone|desktop.png."""
    ARTIFACTS.mkdir(exist_ok=True)
    for size, tag in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page.set_viewport_size(size)
        page.screenshot(path=str(ARTIFACTS / f"{name}-{tag}.png"), full_page=True)
    page.set_viewport_size(DESKTOP)


def routes(w: Watched) -> int:
    """How many times the page has routed (it counts them in <html data-routes>)."""
    return int(w.page.evaluate("Number(document.documentElement.dataset.routes || 0)"))


def go(w: Watched, fragment: str, *, wait: bool = False, one_screen: bool = True) -> None:
    """Change the fragment, as a link does; wait: until the page has shown it.
    one_screen: this device plays every seat of the game (as the device that
    set it up at one screen does: web/share/seats.js), so a test plays each
    seat's move in turn without being asked; False: as a phone that opened a
    link someone sent (e2e/test_two_phones.py)."""
    before = routes(w) if wait else 0
    if one_screen:
        every_seat(w.page, fragment)
    w.page.evaluate("f => { location.hash = f; }", fragment)
    if wait:
        w.page.wait_for_function("n => Number(document.documentElement.dataset.routes || 0) > n", arg=before)
        w.wait_ready()


SEATS_KEY = "quetgames.seats.v1"  # the seats this device plays, by game id (web/share/seats.js)


def every_seat(page: Page, record: str) -> None:
    """This device plays every seat of `record`'s game (a game at one screen)."""
    try:
        game_id = quetgames.load(record).game_id
    except (quetgames.RulesError, ValueError):
        return
    if game_id:
        page.evaluate("""([key, id]) => { const map = JSON.parse(localStorage.getItem(key) || "{}");
            map[id] = { seats: "all", at: Date.now() }; localStorage.setItem(key, JSON.stringify(map)); }""", [SEATS_KEY, game_id])


def forget_games(w: Watched) -> None:
    """Clear this context's saved games. A test that opens several unrelated
    games of one start calls it first: a game saved earlier that shares a
    choice with the link would (rightly) stop the link at the conflict panel
    (e2e/test_links.py), not open it."""
    w.page.evaluate(f"() => {{ for (const k of Object.keys(localStorage)) if (k.startsWith('{GAME_PREFIX}') || k === '{OLD_SAVED}') localStorage.removeItem(k); }}")


# Saved games: one localStorage key per game (web/share/saved.js); older versions kept one list under OLD_SAVED.
GAME_PREFIX = "quetgames.game."
OLD_SAVED = "quetgames.saved.v1"


# The saved games in a page's storage, by key, as a JS expression.
SAVED_GAMES = (f"Object.fromEntries(Object.keys(localStorage).filter((k) => k.startsWith('{GAME_PREFIX}'))"
               ".map((k) => [k, JSON.parse(localStorage.getItem(k))]))")


def saved_entries(page: Page) -> list[dict]:
    """Every saved game in this page's storage, newest first (as the home page lists them)."""
    return page.evaluate(f"() => Object.values({SAVED_GAMES}).sort((a, b) => b.at - a.at)")


def open_record(w: Watched, record: str) -> None:
    """Open a game by its record, the way a shared link does (no reload), and
    wait until it is drawn and ready; the empty record is the home page."""
    go(w, record)
    if not record:
        w.page.locator(".game-card").first.wait_for()
        w.wait_ready()
        return
    # the section names the record, unless the record holds a secret pick
    w.page.wait_for_function(
        """r => decodeURIComponent(location.hash.slice(1)) === r
          && document.querySelector('section.game') !== null
          && [r, undefined].includes(document.querySelector('section.game').dataset.record)""",
        arg=record)
    w.wait_ready()


def wait_fragment_change(w: Watched, old: str, timeout: float = 20_000) -> str:
    """The new fragment, once it differs from `old` and the page is ready again."""
    w.page.wait_for_function("old => decodeURIComponent(location.hash.slice(1)) !== old", arg=old, timeout=timeout)
    w.wait_ready()
    return w.fragment()


def unfold(page: Page) -> None:
    """Open the board's folded lists as a person would, a click on each one's
    summary (not on a board drawn as a picture), and wait for their buttons,
    which a list is given on its toggle event."""
    folded = page.locator("#board details:not([open]) > summary")
    while folded.count() and folded.first.evaluate("el => !el.closest('[inert]')"):
        folded.first.click()  # (opened, it leaves `folded`)
    page.wait_for_function("""() => [...document.querySelectorAll('#board details[open] [role=group]')]
                                     .every((group) => group.children.length > 0)""")


def board_moves(page: Page, *, unique: bool = True) -> list[str]:
    """The notations of the board's one-click targets (unique: each once),
    folded lists unfolded first."""
    unfold(page)
    moves = page.locator("#board [data-move], #board [data-pick]").evaluate_all("els => els.map(e => e.dataset.move ?? e.dataset.pick)")
    return list(dict.fromkeys(moves)) if unique else moves


def press_target(page: Page, move: str) -> None:
    """Press the board's target for `move` as a person would: unfold a folded
    list first, and use the keyboard where the pointer cannot reach it."""
    if page.locator(f'#board [data-move="{move}"]:visible').count() == 0:
        unfold(page)  # the target is in a folded list
    picked = page.locator(f'#board [data-pick="{move}"]:visible')
    if page.locator(f'#board [data-move="{move}"]:visible').count() == 0 and picked.count():
        # a number from a list is selected first, then chosen (web/boards/nonconformity.js)
        picked.first.click()
        page.locator(f'#board .nc-play[data-move="{move}"]').wait_for()
    target = page.locator(f'#board [data-move="{move}"]:visible').first
    try:
        target.click(timeout=3000)
    except PlaywrightTimeout:
        # the pointer cannot reach it (a neighbour's drawing covers its centre): the keyboard can
        target.focus()
        page.keyboard.press("Enter")


def ready_page(browser: Browser, server: str, query: str = "", init_script: str | None = None) -> Iterator[Watched]:
    """A module's page: ready at `server` + `query` (with `init_script` run
    before every document), closed when the module is done."""
    watched = watched_page(browser, server, timeout_ms=30_000)
    if init_script:
        watched.context.add_init_script(init_script)
    watched.goto_ready(f"{server}{query}")
    yield watched
    watched.context.close()


def click_move(w: Watched, move: str, *, timeout: float = 20_000, name: str = "debug") -> str:
    """Click the board's target for `move` as a person would (unfolding a folded
    list first, using the keyboard where the pointer cannot reach it, saying yes
    if the board asks) and return the new record once the page is ready again."""
    old = w.fragment()
    page = w.page
    press_target(page, move)
    try:
        page.wait_for_function(
            f"old => decodeURIComponent(location.hash.slice(1)) !== old || document.querySelector('{CONFIRM_OPEN}')",
            arg=old, timeout=timeout)
    except PlaywrightTimeout:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{name}-not-played.png"), full_page=True)
        raise AssertionError(f"{move} was not played: {page.locator('#message').all_inner_texts()} {w.errors}") from None
    if page.locator(CONFIRM_OPEN).count():
        page.locator(f"{CONFIRM_OPEN} button[value=yes]").click()
    return wait_fragment_change(w, old, timeout)


def new_from_setup(w: Watched, game_id: str, options: dict[str, str], *,
                   names: list[str] | None = None, kinds: list[str] | None = None) -> quetgames.State:
    """Fill the setup screen like a person (options, then each seat's name and
    who plays it: human or a computer level) and start; the engine's state of
    the new game, read back from the address."""
    page = w.page
    go(w, f"setup={game_id}")
    form = page.locator(f'form.setup[data-game="{game_id}"]')
    form.wait_for()
    for name, value in options.items():
        form.locator(f'[name="{name}"]').fill(value)
    rows = form.locator(".seat-row")
    seats = names if names is not None else kinds
    assert seats is not None and rows.count() == len(seats)
    for i in range(rows.count()):
        if names is not None:
            rows.nth(i).locator("input").fill(names[i])
        if kinds is not None:
            rows.nth(i).locator("select").select_option(kinds[i])
    old = w.fragment()
    form.locator("button[type=submit]").click()
    record = wait_fragment_change(w, old)
    page.locator("section.game").wait_for()
    state = quetgames.load(record)
    if kinds is not None:  # the seat kinds are in the record, so the link restores them
        assert [s["kind"] for s in state.view()["seats"]] == kinds
    return state


def finished(game: str, seed: int, **options: object) -> quetgames.State:
    """A seeded random game played to its end, one move of the first seat to
    move at a time (a round of joint picks, Nonconformity's, one seat after
    the other)."""
    import random

    rng = random.Random(seed)
    state = quetgames.new_game(game, **options)
    while not state.is_over:
        seat = state.to_move[0]
        state = state.play(rng.choice(state.legal_moves(seat)), seat if len(state.to_move) > 1 else None)
    return state


def random_game(game_id: str, seed: int, **options) -> list[quetgames.State]:
    """Every position of one seeded random game, start to end; each position is
    between rounds (every seat to move has moved), so it holds no secret pick."""
    import random

    rng = random.Random(seed)
    states = [quetgames.new_game(game_id, **options)]
    while not states[-1].is_over:
        state = states[-1]
        for seat in state.to_move:
            state = state.play(rng.choice(state.legal_moves(seat)), seat)
        states.append(state)
    return states


def is_new_game_of(record: str, want: quetgames.State) -> bool:
    """Whether `record` is the game `want` under an id of its own: every new
    game draws a fresh id (docs/RECORD.md), so two new games of the same
    settings differ in that alone."""
    got = quetgames.load(record)
    return got.game_id is not None and got.with_game_id(None).record == want.with_game_id(None).record


def embed_in_host(browser: Browser, host: tuple[str, Path], src: str, *, width: int = 680, height: int = 700,
                  viewport: dict | None = None, start: bool = True, script: str = "", has_touch: bool = False,
                  title: str = "A game by Leroy Quet") -> tuple[Page, Frame]:
    """A blog's page on another origin (the `host` fixture) holding one frame
    of `src` at width x height, titled `title`, in a context of its own (a
    touch screen if `has_touch`); Start pressed and the engine ready unless
    `start` is false. `script`: more of the host's HTML after the frame (its
    host script, say). The page's uncaught errors are in page.errors; close
    it with page.context.close()."""
    import hashlib

    base, folder = host
    name = f"host-{hashlib.sha256(f'{src}{width}{height}{script}{title}'.encode()).hexdigest()[:16]}.html"
    (folder / name).write_text(
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>A blog post</title><link rel='icon' href='data:,'></head>"
        "<body style='margin:0'><h1>A post about number games</h1>"
        f"<iframe src='{src}' title='{title}' width='{width}' height='{height}' style='border:0;display:block'></iframe>"
        f"{script}<p>Text after the game.</p></body></html>")
    context = browser.new_context(viewport=viewport or {"width": max(1100, width + 40), "height": max(900, height + 120)},
                                  has_touch=has_touch)
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(base + name)
    page.wait_for_function("() => document.querySelector('iframe')?.contentWindow")
    frame = next(f for f in page.frames if "embed.html" in f.url)
    if start:
        frame.locator("#embed-start").click()
        frame.locator(READY).wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)
    return page, frame


# -- positions to open ---------------------------------------------------------------


def played(game: str, moves: int, seed: int) -> quetgames.State:
    """A game of `game` after `moves` random legal turns (fewer if it ends);
    where several seats choose at once, each turn is the whole round, so no
    pick is left secret in the record."""
    rng = random.Random(seed)
    state = quetgames.new_game(game)
    for _ in range(moves):
        if state.is_over:
            break
        for seat in list(state.view()["to_move"]):
            state = state.play(rng.choice(state.legal_moves(seat)), seat=seat)
    return state
