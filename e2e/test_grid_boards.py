"""The three grid boards (Convoluted Coprimality, Enumeration, Multiplications)
played like a person: whole games by clicking the squares, a wrong square that
answers with the engine's reason, the knock-out warning, and keyboard-only play.

Expected records and reasons come from the Python engine (imported from py/),
so the page is checked against the rules, not against numbers copied in here.
One page (one engine start) serves the whole module; games are opened by
changing the URL fragment, as a shared link would.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
import quetgames
from playwright.sync_api import Browser

from .harness import ARTIFACTS, Watched, board_moves, forget_games, open_record, watched_page

CC = "convoluted-coprimality"
EN = "enumeration"
MU = "multiplications"

CHANGED = "old => decodeURIComponent(location.hash.slice(1)) !== old && document.documentElement.dataset.engine === 'ready'"
# After a click on a warned square: either the move went through, or a yes/no
# question is waiting (the shell's in-page dialog; window.confirm is auto-accepted).
CHANGED_OR_ASKED = f"old => ({CHANGED.split('=> ', 1)[1]}) || !!document.querySelector('dialog[open]')"


asked: list[str] = []  # questions put with window.confirm


@pytest.fixture(scope="module")
def w(browser: Browser, server: str) -> Iterator[Watched]:
    watched = watched_page(browser, server, viewport={"width": 1100, "height": 900}, timeout_ms=30_000)
    # a window.confirm fallback, if the shell has no ui.confirm: accept, and note the question
    watched.page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    watched.goto_ready(f"{server}index.html")
    yield watched
    watched.context.close()


@pytest.fixture(autouse=True)
def no_errors(w: Watched) -> Iterator[None]:
    w.errors.clear()
    yield
    assert w.errors == []


def answer_question(w: Watched, yes: bool) -> str | None:
    """Answer the in-page yes/no dialog if one is open; returns its text."""
    dialog = w.page.locator("dialog[open]")
    if dialog.count() == 0:
        return None
    text = dialog.inner_text()
    buttons = dialog.locator("button")
    choice = dialog.locator("button[value=yes]" if yes else "button[value=no]")
    (choice if choice.count() else buttons.nth(buttons.count() - 1 if yes else 0)).click()
    return text


def play_by_click(w: Watched, state: quetgames.State, move: str) -> quetgames.State:
    """Click the square for `move` (saying yes to a warning) and check the page moved on."""
    before = w.fragment()
    w.page.locator(f'#board [data-move="{move}"]').click()
    w.page.wait_for_function(CHANGED_OR_ASKED, arg=before)
    if answer_question(w, yes=True) is not None:
        w.page.wait_for_function(CHANGED, arg=before)
    after = state.play(move)
    assert w.fragment() == after.record
    return after


# Convoluted Coprimality's block of numbers, as the page shows it: the chips
# (number, class, aria-current), "next: n", and the legend's legal-square key.
CC_PANEL = """() => ({
  chips: [...document.querySelectorAll('.grid-info .chips li')].map((li) => [Number(li.textContent), li.className, li.getAttribute('aria-current')]),
  next: document.querySelector('.grid-info .next-number')?.textContent ?? null,
  legal: document.querySelector('.grid-legend .key.legal')?.textContent ?? null,
  ghosts: [...document.querySelectorAll('#board text.ghost')].map((t) => t.textContent),
  labels: [...document.querySelectorAll('#board [data-move]')].map((el) => el.getAttribute('aria-label')),
})"""


def check_cc_panel(w: Watched, state: quetgames.State) -> None:
    """The block's chips and the legend follow the engine's view move after
    move (they are marked in place, not made again: web/boards/convoluted-coprimality.js)."""
    board = state.view()["board"]
    shown = w.page.evaluate(CC_PANEL)
    n = board["next_number"]
    assert shown["legal"] == (str(n) if n is not None else "·"), state.record
    if n is None:
        return
    assert [k for k, _, _ in shown["chips"]] == board["block"], state.record
    for k, cls, current in shown["chips"]:
        assert cls == ("done" if k < n else "next" if k == n else ""), (state.record, k)
        assert current == ("step" if k == n else None), (state.record, k)
    assert shown["next"] == f"next: {n}", state.record
    # every legal square shows the next number and says it (changed in place
    # on a square that stays legal)
    assert shown["ghosts"] == [str(n)] * len(state.legal_moves()), state.record
    for label in shown["labels"]:
        assert label.endswith(f"write {n} here") or ", but: " in label, (state.record, label)


def play_out(w: Watched, state: quetgames.State, rng: random.Random, max_moves: int = 400) -> quetgames.State:
    open_record(w, state.record)
    for _ in range(max_moves):
        if state.is_over:
            break
        targets = board_moves(w.page, unique=False)
        # every legal move is one click away, and nothing illegal is offered
        assert sorted(targets) == sorted(state.legal_moves()), state.record
        if state.game.id == CC:
            check_cc_panel(w, state)
        state = play_by_click(w, state, rng.choice(targets))
    assert state.is_over, state.record
    assert w.page.locator("#board [data-move]").count() == 0
    assert w.page.locator("#status").inner_text() == state.view()["status"]
    return state


@pytest.mark.parametrize(
    ("game", "options", "seed"),
    [
        (CC, {"players": 3, "size": 5}, 1),
        (CC, {}, 2),
        (EN, {"players": 2, "size": 4, "goal": "corner"}, 3),
        (EN, {"players": 1, "size": 4, "goal": "parity"}, 4),
        (MU, {"players": 3, "k": 3}, 5),
    ],
    ids=["cc-3p-5", "cc-default", "en-corner-2p-4", "en-parity-solo-4", "mu-3p-k3"],
)
def test_play_whole_game_by_clicking(w: Watched, game: str, options: dict, seed: int) -> None:
    play_out(w, quetgames.new_game(game, **options), random.Random(seed))


def test_enumeration_shows_both_counts_and_the_finished_grid(w: Watched) -> None:
    state = quetgames.new_game(EN, players=2, size=4)
    rng = random.Random(7)
    while state.view()["board"]["grid"] == 1:
        state = state.play(rng.choice(state.legal_moves()))
    forget_games(w)  # the games played by clicks above share this start
    open_record(w, state.record)
    board = state.view()["board"]
    for square, cand in board["candidates"].items():
        for value, arrow in ((cand["above"], "↑"), (cand["left"], "←")):
            target = w.page.locator(f'#board [data-move="{square}={value}"]')
            assert target.count() == 1
            if cand["above"] != cand["left"]:
                assert arrow in target.get_attribute("aria-label")
    # grid 1 of 2, and the finished grid drawn beside it
    assert "Grid 2 of 2" in w.page.locator("#board").inner_text()
    assert w.page.locator("#board figure.grid-mini svg").count() == 1


def test_illegal_clicks_give_the_engines_reason_and_change_nothing(w: Watched) -> None:
    cases = [
        (quetgames.new_game(CC, players=3, size=5), "c3"),  # not next to 1
        (quetgames.new_game(MU).play("a1"), "b1"),  # row 1 already has an x
        (quetgames.new_game(EN, size=4), "d4=0"),  # the squares above and left are empty
        (quetgames.new_game(EN, size=4), "c1=3"),  # a column number (issue 56: it answered nothing)
    ]
    for state, move in cases:
        open_record(w, state.record)
        with pytest.raises(quetgames.IllegalMove) as reason:
            state.play(move)
        square = w.page.locator(f'#board [data-try="{move}"]')
        assert square.count() == 1 and square.get_attribute("data-move") is None
        square.click()
        message = w.page.locator("#message")
        message.filter(has_text=str(reason.value)).wait_for()
        w.wait_ready()
        assert w.fragment() == state.record


# In Enumeration every square that is not a move answers a tap at once, in the
# engine's words, on screen: a row or column number, a filled square, an empty
# one not yet fillable (issue 56: a tap on a row or column number got no answer).
REFUSED = ["a3", "c1", "b2", "f6"]
# Some element drawn whole on screen (more than a visually hidden pixel) whose own words are `text`.
SEEN_ON_SCREEN = """(text) => [...document.querySelectorAll('body *')].some((el) => {
  if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.includes(text))) return false;
  const r = el.getBoundingClientRect();
  return r.width > 20 && r.height > 8 && r.top >= 0 && r.bottom <= innerHeight && getComputedStyle(el).visibility !== 'hidden';
})"""


def test_enumeration_answers_a_refused_tap_in_view_on_a_phone(browser: Browser, server: str) -> None:
    rng = random.Random(2)
    state = quetgames.new_game(EN)
    for _ in range(7):
        state = state.play(rng.choice(state.legal_moves()))
    w = watched_page(browser, server, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, timeout_ms=30_000)
    try:
        w.goto_ready(server)
        open_record(w, state.record)
        values = state.view()["board"]["values"]
        for sq in REFUSED:
            move = f"{sq}={values[int(sq[1:]) - 1]['abcdef'.index(sq[0])] or 0}"
            with pytest.raises(quetgames.IllegalMove) as reason:
                state.play(move)
            cell = w.page.locator(f'#board .cell[data-square="{sq}"]')
            assert cell.get_attribute("data-try") == move, (sq, cell.get_attribute("data-try"))
            cell.scroll_into_view_if_needed()
            cell.tap()
            # heard (#message, the live region) and seen: the words drawn on screen, wherever the page shows them
            w.page.locator("#message").filter(has_text=str(reason.value)).wait_for(state="attached")
            w.wait_ready()
            w.page.wait_for_function(SEEN_ON_SCREEN, arg=str(reason.value))
            assert w.fragment() == state.record
        ARTIFACTS.mkdir(exist_ok=True)
        w.page.screenshot(path=str(ARTIFACTS / "enumeration-refused-tap-390.png"))
        assert w.errors == []
    finally:
        w.context.close()


def first_warned_position(seed: int, players: int = 2) -> tuple[quetgames.State, str, list[int]]:
    """A 6×6 game at a moment when some legal square would knock the mover out."""
    rng = random.Random(seed)
    state = quetgames.new_game(CC, size=6, players=players)
    while not state.is_over:
        targets = state.view()["board"]["targets"]
        warned = [sq for sq, t in targets.items() if t["eliminates"]]
        if warned:
            return state, warned[0], targets[warned[0]]["clashes"]
        state = state.play(rng.choice(state.legal_moves()))
    raise AssertionError("no warned square in this game")


def test_a_knock_out_square_is_marked_and_asks_first(w: Watched) -> None:
    state, square, clashes = first_warned_position(11)
    open_record(w, state.record)
    cell = w.page.locator(f'#board [data-move="{square}"]')
    label = cell.get_attribute("aria-label")
    assert "knocked out" in label and all(str(c) in label for c in clashes)
    assert "danger" in cell.get_attribute("class")
    assert "⚠" in w.page.locator("#board svg.grid-board").text_content()  # a glyph, not colour alone
    number = state.view()["board"]["next_number"]
    asked.clear()
    cell.click()
    w.page.wait_for_function(CHANGED_OR_ASKED, arg=state.record)
    text = answer_question(w, yes=False)
    if text is not None:  # the shell asks in the page: "no" plays nothing, "yes" plays
        assert f"Writing {number} at" in text and "knocked out" in text and "common factor" in text
        w.wait_ready()
        assert w.fragment() == state.record
        after = play_by_click(w, state, square)
    else:  # no ui.confirm in the shell: window.confirm, accepted by the page's handler
        assert asked and f"Writing {number} at" in asked[0]
        after = state.play(square)
        assert w.fragment() == after.record
    assert after.view()["board"]["eliminations"][-1]["square"] == square


def test_keyboard_only_multiplications(w: Watched) -> None:
    """Tab into the board, walk it with the arrow keys, play with Enter and Space."""
    page = w.page
    state = quetgames.new_game(MU, players=2, k=3)
    open_record(w, state.record)
    rng = random.Random(3)
    page.locator("#status").click()  # a neutral place to start tabbing from
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("() => !!document.activeElement.closest('#board svg')"):
            break
    else:
        raise AssertionError("Tab never reached the board")
    keys = ["ArrowRight", "ArrowLeft", "ArrowDown", "ArrowUp"]
    tried_illegal = False
    for _ in range(200):
        if state.is_over:
            break
        active = page.evaluate("() => ({move: document.activeElement.dataset.move ?? null, try: document.activeElement.dataset.try ?? null})")
        if active["try"] and not tried_illegal:
            # Enter on a square that is not legal: the engine's reason, nothing played
            page.keyboard.press("Enter")
            page.locator("#message[data-kind=error]").wait_for()
            assert w.fragment() == state.record
            tried_illegal = True
        if active["move"] and rng.random() < 0.6:
            before = w.fragment()
            page.keyboard.press(rng.choice(["Enter", " "]))
            page.wait_for_function(CHANGED, arg=before)
            state = state.play(active["move"])
            assert w.fragment() == state.record
            if not state.is_over:  # focus comes back to a playable square after the redraw
                page.wait_for_function("() => document.activeElement.dataset?.move !== undefined")
        else:
            page.keyboard.press(rng.choice(keys))
    assert state.is_over, state.record
    assert tried_illegal


def random_record(game: str, moves: int, seed: int, **options) -> str:
    """A position part-way through a game, avoiding knock-outs where possible."""
    rng = random.Random(seed)
    state = quetgames.new_game(game, **options)
    for _ in range(moves):
        legal = state.legal_moves()
        if not legal:
            break
        if game == CC:
            targets = state.view()["board"]["targets"]
            legal = [m for m in legal if not targets[m]["eliminates"] and not state.play(m).is_over]
            if not legal:  # stop while the position is still live
                break
        state = state.play(rng.choice(legal))
    return state.record


SHOTS = {
    "cc-5-3p": (CC, 9, 1, {"players": 3, "size": 5}),
    "cc-12": (CC, 40, 2, {}),
    "cc-26": (CC, 120, 50, {"size": 26}),
    "en-6": (EN, 9, 4, {}),
    "en-4-grid2": (EN, 12, 5, {"size": 4}),
    "en-parity": (EN, 5, 6, {"size": 5, "goal": "parity", "players": 1}),
    "mu-mark": (MU, 4, 7, {}),
    "mu-number": (MU, 10, 8, {}),
}


@pytest.mark.parametrize("viewport", [(360, 740), (1280, 800)], ids=["phone", "desktop"])
def test_screenshots(w: Watched, viewport: tuple[int, int]) -> None:
    page = w.page
    page.set_viewport_size({"width": viewport[0], "height": viewport[1]})
    try:
        warned, square, _ = first_warned_position(11, players=3)
        records = {name: random_record(game, moves, seed, **options) for name, (game, moves, seed, options) in SHOTS.items()}
        records["cc-warned"] = warned.record
        records["cc-knocked-out"] = warned.play(square).record
        for name, record in records.items():
            open_record(w, record)
            svg = page.locator("#board svg.grid-board").first
            box = svg.bounding_box()
            assert box and box["width"] >= 250  # readable, and within the screen unless scrolled on purpose
            w.screenshot(f"grid-{name}-{viewport[0]}")
            assert (ARTIFACTS / f"grid-{name}-{viewport[0]}.png").exists()
    finally:
        page.set_viewport_size({"width": 1100, "height": 900})
