"""Keyboard-only play, and moves announced.

One whole game of each kind, from the home page through the setup screen to
the end screen, with nothing but the keyboard: Tab and Shift+Tab between
controls, arrow keys over the board, Enter and Space to play, moves typed in
the move box; never the mouse. After every move the focus must be visible
(:focus-visible, drawn with an outline, a shadow or the board's focus ring)
and still in the game, and the live region (#announce, one polite region in
the game view) must say what happened in the engine's words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
import quetgames
from playwright.sync_api import Browser, Page

from .harness import ARTIFACTS, Watched, shoot, watched_page, wait_fragment_change

# What has focus, and whether a person can see it.
FOCUS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return {body: true};
  const cs = getComputedStyle(el);
  const ring = el.querySelector?.('.focus-ring');
  const drawn = (cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) > 0)
    || (cs.boxShadow && cs.boxShadow !== 'none')
    || (ring && getComputedStyle(ring).display !== 'none')
    || (el instanceof SVGElement && parseFloat(cs.strokeWidth) >= 3 && cs.stroke !== 'none');
  return {
    body: false,
    tag: el.tagName.toLowerCase(), id: el.id, name: el.getAttribute('name'),
    move: el.dataset?.move ?? null, tryMove: el.dataset?.try ?? null, key: el.dataset?.key ?? null,
    cls: el.getAttribute('class') || '',
    role: el.getAttribute('role'),
    text: (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 80),
    visible: el.matches(':focus-visible') && !!drawn,
    inGame: !!el.closest('section.game, .embed-game'), inBoard: !!el.closest('#board'),
  };
}"""



@pytest.fixture(scope="module")
def w(browser: Browser, server: str) -> Iterator[Watched]:
    watched = watched_page(browser, server, viewport={"width": 1100, "height": 900}, timeout_ms=30_000)
    watched.goto_ready(server)
    yield watched
    watched.context.close()


def focus(page: Page) -> dict:
    return page.evaluate(FOCUS)


def tab_to(page: Page, wanted: Callable[[dict], bool], *, back: bool = False, limit: int = 80) -> dict:
    """Press Tab (Shift+Tab: back) until the focused element is the wanted one
    (none if it already is)."""
    here = focus(page)
    if not here["body"] and wanted(here):
        return here
    for _ in range(limit):
        page.keyboard.press("Shift+Tab" if back else "Tab")
        here = focus(page)
        if not here["body"] and wanted(here):
            return here
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "keyboard-lost.png"), full_page=True)
    raise AssertionError(f"Tab never reached the control wanted; focus is on {focus(page)}")


def assert_focus_kept(page: Page, where: str) -> dict:
    """After a move: focus is on something in the game, and it shows."""
    # the view gives focus back on the frame after its draw
    page.wait_for_function("() => document.activeElement && document.activeElement !== document.body", timeout=5_000)
    here = focus(page)
    assert not here["body"], f"focus was lost after {where}"
    assert here["inGame"], f"focus left the game after {where}: {here}"
    assert here["visible"], f"focus is not visible after {where}: {here}"
    return here


# Every text the live region is given, in order, written down in the page (a
# computer's reply may follow a person's move before a test could look).
LISTEN = """() => {
  const el = document.getElementById('announce');
  window.__heard = [el.textContent];
  new MutationObserver(() => window.__heard.push(el.textContent)).observe(el, {childList: true, characterData: true, subtree: true});
}"""


class Game:
    """One game played by keyboard: the page, the record as it stands, and
    the announcements heard so far."""

    def __init__(self, w: Watched) -> None:
        self.w = w
        self.page = w.page
        self.record = w.fragment()
        w.page.evaluate(LISTEN)
        self.heard: list[str] = w.page.evaluate("() => window.__heard.slice()")
        self.moves = 0

    @property
    def state(self) -> quetgames.State:
        return quetgames.load(self.record)

    def next_heard(self, what: str) -> str:
        """The next text the live region was given."""
        n = len(self.heard)
        self.page.wait_for_function("n => window.__heard.length > n", arg=n)
        self.heard.append(self.page.evaluate("n => window.__heard[n]", n))
        assert self.heard[-1] and self.heard[-1] != self.heard[-2], f"{what} changed nothing said: {self.heard}"
        return self.heard[-1]

    def wait_move(self, what: str, after: quetgames.State | None = None) -> str:
        """A move went in: the address changes, the move is announced in the
        engine's words (for `after`, the game after it, when known; else for
        the address), and focus stays in sight."""
        new = wait_fragment_change(self.w, self.record)
        self.record = after.record if after is not None else new
        said = self.next_heard(what)
        assert said == self.state.view()["announcement"]
        self.moves += 1
        assert_focus_kept(self.page, f"move {self.moves} ({what})")
        return said

    def enter(self, move: str) -> str:
        """Enter plays the focused move `move`; the engine's words for it are heard."""
        after = self.state.play(move)
        self.page.keyboard.press("Enter")
        return self.wait_move(move, after)

    def wait_computer(self) -> str:
        """A computer seat's move: the page plays it by itself."""
        before = self.state
        said = self.next_heard("the computer's move")
        if self.w.fragment() == before.record:
            wait_fragment_change(self.w, before.record)
        self.record = self.w.fragment()
        self.w.wait_ready()
        assert said == self.state.view()["announcement"]
        self.moves += 1
        assert_focus_kept(self.page, f"move {self.moves} (the computer's)")
        return said


def start_from_home(w: Watched, game_id: str, options: dict[str, str], kinds: list[str] | None = None) -> Game:
    """Home page → the game's Play link → fill the setup → Start, all by keyboard."""
    page = w.page
    w.page.evaluate("() => { location.hash = ''; }")
    page.locator(".game-card").first.wait_for()
    w.wait_ready()
    page.evaluate("() => document.activeElement?.blur()")
    tab_to(page, lambda f: f["tag"] == "a" and f["text"].startswith("Play") and game_id in (page.evaluate(
        "() => document.activeElement.closest('.game-card')?.id") or ""))
    page.keyboard.press("Enter")
    form = page.locator(f'form.setup[data-game="{game_id}"]')
    form.wait_for()
    for name, value in options.items():
        tab_to(page, lambda f, name=name: f["name"] == name)
        page.keyboard.press("Control+A")
        page.keyboard.type(value)
    for seat, kind in enumerate(kinds or []):
        tab_to(page, lambda f, seat=seat: f["name"] == f"seat-{seat}-kind")
        for _ in range(6):
            if page.evaluate("() => document.activeElement.value") == kind:
                break
            page.keyboard.press("ArrowDown")
        assert page.evaluate("() => document.activeElement.value") == kind
    shoot(page, f"keyboard-{game_id}-setup")
    tab_to(page, lambda f: f["tag"] == "button" and "start" in f["cls"])
    old = w.fragment()
    page.keyboard.press("Enter")
    wait_fragment_change(w, old)
    page.locator("section.game").wait_for()
    w.wait_ready()
    # a new game says whose turn it is
    page.wait_for_function("() => document.getElementById('announce')?.textContent")
    game = Game(w)
    assert game.heard == [quetgames.load(w.fragment()).view()["announcement"]]
    return game


def into_board(page: Page) -> dict:
    """Tab (from wherever focus is) to the board's roving tab stop."""
    here = focus(page)
    if not here["body"] and here["inBoard"] and (here["move"] or here["tryMove"]):
        return here
    return tab_to(page, lambda f: f["inBoard"] and (f["move"] is not None or f["tryMove"] is not None))


def arrow_to_legal(page: Page, keys: tuple[str, ...] = ("ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp")) -> dict:
    """Arrow keys over the board until a legal target has focus."""
    here = into_board(page)
    tries = 0
    while here["move"] is None:
        page.keyboard.press(keys[tries // 6 % len(keys)])
        here = focus(page)
        assert here["inBoard"], f"an arrow key took focus off the board: {here}"
        tries += 1
        assert tries < 60, "no legal target reachable by arrow keys"
    return here


def finish(game: Game, game_id: str) -> None:
    """The end screen: over in the engine, the summary shown, the last words say so."""
    page = game.page
    state = game.state
    assert state.is_over
    page.locator("#summary").wait_for()
    assert game.heard[-1] == state.view()["announcement"]
    assert "Game over" in game.heard[-1]
    # every move changed what was said
    assert all(a != b for a, b in zip(game.heard, game.heard[1:])), game.heard
    shoot(page, f"keyboard-{game_id}-over")
    # the end screen is reachable and usable by keyboard: Play again
    tab_to(page, lambda f: f["key"] == "play-again")


# -- the five games --------------------------------------------------------------------------


def play_convoluted_coprimality(w: Watched) -> None:
    """Two people at one screen, by arrow keys and Enter on the board; a move
    that would knock the mover out asks first, and is answered by keyboard."""
    game = start_from_home(w, "convoluted-coprimality", {"size": "4", "max_rounds": "1"})
    page = game.page
    moved = False
    while not game.state.is_over:
        before = game.state
        here = arrow_to_legal(page)
        if not moved:
            # the arrows move over the board: away and back
            page.keyboard.press("ArrowDown")
            away = focus(page)
            assert away["inBoard"] and away["text"] != here["text"], (here, away)
            page.keyboard.press("ArrowUp")
            here = arrow_to_legal(page)
            moved = True
        page.keyboard.press("Enter" if game.moves % 2 else " ")
        if page.locator("dialog.confirm[open]").count():
            tab_to(page, lambda f: f["tag"] == "button" and "yes" in (page.evaluate("() => document.activeElement.value") or ""))
            page.keyboard.press("Enter")
        game.wait_move(here["move"], before.play(here["move"]))
        if game.moves == 1:
            shoot(page, "keyboard-convoluted-coprimality-move")
        assert game.heard[-1].startswith(f"{before.seat_name(before.to_move[0])} wrote {before.view()['board']['next_number']} at {here['move']}")
    finish(game, "convoluted-coprimality")


def play_enumeration(w: Watched) -> None:
    """A person against the computer (easy): the person plays by the board, the
    computer's replies are announced too."""
    game = start_from_home(w, "enumeration", {"size": "4"}, kinds=["human", "random"])
    page = game.page
    while not game.state.is_over:
        state = game.state
        if state.view()["seats"][state.to_move[0]]["kind"] != "human":
            game.wait_computer()
            assert game.heard[-1].startswith("Player 2 wrote "), game.heard[-1]
            continue
        here = arrow_to_legal(page)
        game.enter(here["move"])
        square, value = here["move"].split("=")
        assert game.heard[-1].startswith(f"Player 1 wrote {value} at {square}")
    finish(game, "enumeration")


def play_multiplications(w: Watched) -> None:
    """Two people, every move typed in the move box and played with Enter."""
    game = start_from_home(w, "multiplications", {"players": "2", "k": "3"})
    page = game.page
    while not game.state.is_over:
        state = game.state
        move = state.legal_moves()[-1]
        here = focus(page)
        if here["body"] or here["id"] != "move-input":
            tab_to(page, lambda f: f["id"] == "move-input", back=here["inBoard"] is False)
        page.keyboard.type(move)
        game.enter(move)
        assert game.heard[-1].startswith(state.describe_move(move))
    finish(game, "multiplications")


def play_prime_target(w: Watched) -> None:
    """Two people: the centre by typing a digit on a wedge then Enter, the rings
    by toggling wedges with Space and Tab to "Play this ring"."""
    game = start_from_home(w, "prime-target", {"players": "2", "k": "2", "rays": "4"})
    page = game.page
    while not game.state.is_over:
        state = game.state
        board = state.view()["board"]
        if board["phase"] == "centre":
            here = arrow_to_legal(page)
            value = board["free_values"][-1]
            page.keyboard.press(str(value))
            here = focus(page)
            assert here["move"] == f"{value}@{here['move'].split('@')[1]}", here
            game.enter(here["move"])
        else:
            # the wedges of the new ring are switches (sum or difference): Space turns one
            here = tab_to(page, lambda f: f["inBoard"] and f["role"] == "switch")
            page.keyboard.press("ArrowRight")
            page.keyboard.press("Space")
            assert page.evaluate("() => document.activeElement.getAttribute('aria-checked')") in ("true", "false")
            # "Play this ring" comes before the target: back to it with Shift+Tab
            tab_to(page, lambda f: "pt-play-ring" in f["cls"], back=True)
            page.keyboard.press("Enter")
            game.wait_move("a ring")
    finish(game, "prime-target")


def play_nonconformity(w: Watched) -> None:
    """Two people at one screen: each round, the hand-over screen, "I am …",
    the pick typed in the pick box (or a listed number played with Space),
    then the device passed on; nobody's pick is said before the reveal."""
    game = start_from_home(w, "nonconformity", {"length": "3", "max_pick": "100", "starts.0": "6", "starts.1": "4"})
    page = game.page
    while not game.state.is_over:
        # the hand-over screen: focus on its title; Tab on to "I am …"
        page.locator(".curtain").wait_for()
        here = assert_focus_kept(page, "the hand-over")
        tab_to(page, lambda f: f["key"] == "show-board")
        page.keyboard.press("Enter")
        page.locator("#nc-pick").wait_for()
        seat = int(page.locator(".secret-banner").get_attribute("data-seat"))
        if seat == 0:
            pick = game.state.legal_moves(0)[-1]
            tab_to(page, lambda f: f["id"] == "nc-pick")
            page.keyboard.type(pick)
            page.keyboard.press("Enter")
        else:
            button = tab_to(page, lambda f: f["inBoard"] and f["tag"] == "button" and f["move"] is not None)
            pick = button["move"]
            page.keyboard.press("Space")
        said = game.next_heard(f"{game.state.seat_name(seat)}'s pick")
        game.moves += 1
        if seat == 0:
            # a secret pick: said to be chosen, never named; the address keeps it out too
            assert said.startswith("Player 1 has chosen a number."), said
            assert not re.search(rf"\b{pick}\b", said), said
            assert w.fragment() == game.record
            assert_focus_kept(page, "Player 1's pick")
            shoot(page, "keyboard-nonconformity-handover")
        else:
            game.record = wait_fragment_change(w, game.record)
            assert said == game.state.view()["announcement"]
            assert re.match(rf"Round \d+: Player 1 picked \d+ and Player 2 picked {pick}; ", said), said
            assert_focus_kept(page, f"round {game.state.view()['board']['played']}")
    finish(game, "nonconformity")


GAMES = {
    "convoluted-coprimality": play_convoluted_coprimality,
    "enumeration": play_enumeration,
    "multiplications": play_multiplications,
    "nonconformity": play_nonconformity,
    "prime-target": play_prime_target,
}


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_whole_game_by_keyboard_alone_with_every_move_announced(w: Watched, game_id: str) -> None:
    w.errors.clear()
    GAMES[game_id](w)
    assert w.errors == []


def test_the_live_region_is_one_polite_region_that_stays(w: Watched) -> None:
    """One element says the moves; it is not rebuilt (a screen reader follows
    a live region that stays in the page), and the status line (redrawn on
    every move) is not a second one."""
    page = w.page
    w.page.evaluate("() => { location.hash = 'setup=multiplications'; }")
    page.locator("form.setup").wait_for()
    page.locator("form.setup button.start").focus()
    old = w.fragment()
    page.keyboard.press("Enter")
    wait_fragment_change(w, old)
    page.locator("section.game").wait_for()
    page.evaluate("() => { window.__announce = document.getElementById('announce'); }")
    # (the board's own previews, and the share panel's "copied", speak of what
    # the person is doing there, not of moves)
    live = page.evaluate("""() => [...document.querySelectorAll('section.game [aria-live], section.game [role=status], section.game [role=alert]')]
      .filter((el) => !el.closest('#board') && !el.matches('.share-said'))
      .map((el) => el.id || el.className)""")
    # besides the announcement: the message (an alert: refusals and errors) and
    # the note (polite: news such as a hint or a move taken back)
    assert live == ["message", "note", "announce"]
    page.locator("#move-input").focus()
    page.keyboard.type("c2")
    old = w.fragment()
    page.keyboard.press("Enter")
    wait_fragment_change(w, old)
    page.wait_for_function("() => document.getElementById('announce').textContent.startsWith('Player 1 marked an x at c2.')")
    assert page.evaluate("() => window.__announce === document.getElementById('announce') && window.__announce.isConnected")


def test_the_embed_announces_the_readers_move_and_the_computers_reply(browser: Browser, server: str) -> None:
    """The embed draws the same game view: Start, a move and the computer's
    answer, by keyboard, each said in the live region."""
    state = quetgames.new_game("multiplications", k=3).with_seats(["Reader", ""], ["human", "random"])
    reader = watched_page(browser, server, viewport={"width": 640, "height": 700}, timeout_ms=30_000)
    try:
        page = reader.page
        page.goto(f"{server}embed.html?mode=play#{state.record}")
        tab_to(page, lambda f: f["id"] == "embed-start")
        page.keyboard.press("Enter")
        reader.wait_ready()
        page.locator("#board [data-move]").first.wait_for()
        page.wait_for_function("() => document.getElementById('announce')?.textContent")
        game = Game(reader)
        assert game.heard == [state.view()["announcement"]]
        here = arrow_to_legal(page)
        game.enter(here["move"])
        assert game.heard[-1].startswith(f"Reader marked an x at {here['move']}.")
        said = game.wait_computer()
        assert said.startswith("Player 2 marked an x at ")
        assert said.endswith("Reader to mark an x (2 of 7 placed).")
        assert reader.errors == []
    finally:
        reader.context.close()


def test_nonconformity_against_the_computer_announces_each_round_with_both_picks(w: Watched) -> None:
    """The computer chooses first and keeps its pick; the person's pick, typed
    in the pick box, reveals the round, and the words name both picks."""
    game = start_from_home(w, "nonconformity", {"length": "3", "max_pick": "100", "starts.0": "6", "starts.1": "4"},
                           kinds=["human", "random"])
    page = game.page
    while not game.state.is_over:
        page.locator(".secret-banner.computer-pick #nc-pick, .secret-banner.computer-pick ~ * #nc-pick").first.wait_for()
        here = assert_focus_kept(page, f"round {game.state.view()['board']['played'] + 1} begins")
        assert here["inBoard"], here
        pick = game.state.legal_moves(0)[0]
        tab_to(page, lambda f: f["id"] == "nc-pick", back=True)
        page.keyboard.type(pick)
        page.keyboard.press("Enter")
        said = game.wait_move(f"pick {pick}")
        assert re.match(rf"Round \d+: Player 1 picked {pick} and Player 2 picked \d+; ", said), said
    finish(game, "nonconformity-computer")
