"""The shell around the boards, used like a person would: the home page, the
setup screen, move history with replay and undo, the end-of-game summary, and
hot-seat secrecy for Nonconformity's simultaneous picks.

One page (one engine start) for the whole module; screens are reached by
changing the URL fragment, as links do. Expected records, seats, scores and
reveals come from the Python engine imported from py/.
"""

from __future__ import annotations

import random
import re

import pytest
import quetgames
from playwright.sync_api import Page

from .harness import ARTIFACTS, Watched, board_moves, click_move, go, new_from_setup, open_record, shoot, wait_fragment_change


# -- helpers -------------------------------------------------------------------------


# -- home and setup ------------------------------------------------------------------


def test_home_lists_the_games_and_keyboard_reaches_play_then_the_board(w: Watched, page: Page) -> None:
    go(w, "")
    page.locator(".game-card").first.wait_for()
    cards = page.locator(".game-card")
    assert cards.count() == len(quetgames.GAMES)
    for game in quetgames.GAMES.values():
        card = page.locator(f"#game-{game.id}")
        assert card.locator(".thumb").count() == 1
        summary = card.locator(".summary").inner_text()
        assert game.summary.startswith(summary) and summary.endswith(".")
        assert "invented by leroy quet" in card.inner_text().lower()
    # every picture box has the same size, drawn or not, so nothing jumps
    sizes = page.locator(".thumb").evaluate_all("els => els.map(e => [e.offsetWidth, e.offsetHeight])")
    assert len({tuple(s) for s in sizes}) == 1
    shoot(page, "shell-home")

    # keyboard only: Tab to the first Play button, Enter opens its setup screen
    first = next(iter(quetgames.GAMES.values()))
    page.locator("body").focus()
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('play')"):
            break
    assert page.evaluate("document.activeElement.getAttribute('href')") == f"#setup={first.id}"
    page.keyboard.press("Enter")
    start = page.locator(f'form.setup[data-game="{first.id}"] button[type=submit]')
    start.wait_for()
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('start')"):
            break
    old = w.fragment()
    page.keyboard.press("Enter")
    wait_fragment_change(w, old)
    page.locator("section.game").wait_for()
    # ... and on to the board: Tab until a move target has focus, Enter plays it
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("!!document.activeElement.closest('#board') && document.activeElement.matches('[data-move]')"):
            break
    move = page.evaluate("document.activeElement.dataset.move")
    assert move
    old = w.fragment()
    page.keyboard.press("Enter")
    page.wait_for_function(
        "old => decodeURIComponent(location.hash.slice(1)) !== old || document.querySelector('dialog.confirm[open]')", arg=old)
    if page.locator("dialog.confirm[open]").count():
        page.keyboard.press("Enter")  # the dialog's focus starts on "Yes"
    assert wait_fragment_change(w, old) == quetgames.load(old).play(move).record


def test_a_link_followed_right_after_a_move_keeps_its_own_address(w: Watched, page: Page) -> None:
    """After a move the address is written once the board is painted; a link
    followed before that (here as soon as the new board is in the page, still
    unpainted) is what the page shows and what the address says, never the
    game before."""
    first = quetgames.new_game("multiplications")
    other = quetgames.new_game("enumeration")
    open_record(w, first.record)
    move = board_moves(page)[0]
    caught = page.evaluate("""([move, other]) => new Promise((resolve) => {
      const html = document.documentElement;
      const game = document.querySelector("section.game");
      const before = game.dataset.ply;
      new MutationObserver((_, seen) => {
        if (game.dataset.ply === before || html.dataset.engine !== "ready") return;
        seen.disconnect();
        const due = html.dataset.address === "due";
        // followed while this frame is rendered: after the page asked for its
        // address's write, and before that write runs
        const sized = new ResizeObserver(() => {
          sized.disconnect();
          location.hash = other;
          resolve(due);
        });
        sized.observe(document.body);
      }).observe(document, { subtree: true, childList: true, attributes: true });
      const target = document.querySelector(`#board [data-move="${CSS.escape(move)}"]`);
      target.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, view: window }));
    })""", [move, other.record])
    assert caught, "the new board was in the page before its address was left for later"
    page.locator(f'section.game[data-record="{other.record}"]').wait_for()
    w.wait_ready()
    assert w.fragment() == other.record  # (once the move's address is written or dropped)
    assert page.locator("section.game").get_attribute("data-record") == other.record


def test_setup_creates_a_game_with_names_shown_as_text(w: Watched, page: Page) -> None:
    names = ["<b>Ann</b>", "<script>x()</script>", "Cleo"]
    go(w, "setup=multiplications")
    form = page.locator('form.setup[data-game="multiplications"]')
    form.wait_for()
    assert form.locator(".seat-row").count() == 2  # follows the players option's default
    form.locator('[name="players"]').fill("3")
    assert form.locator(".seat-row").count() == 3
    assert form.locator(".seat-row input").first.get_attribute("maxlength") == "20"
    # every seat may be a person or a computer at one of the engine's levels
    kinds = form.locator(".seat-row select").first.locator("option")
    assert kinds.count() == 4 and form.locator(".seat-row select").first.locator("option[disabled]").count() == 0
    # every option has a label in words
    for name in ("players", "k"):
        assert page.locator(f'label[for="opt-{name}"]').inner_text().strip()
    # the engine's refusal is shown next to the form, in words
    form.locator('[name="k"]').fill("12")
    form.locator("button[type=submit]").click()
    error = page.locator("#setup-error")
    error.filter(has_text="cannot start").wait_for()
    with pytest.raises(quetgames.InvalidOptions) as refused:
        quetgames.new_game("multiplications", players=3, k=12)
    assert str(refused.value) in error.inner_text()
    assert w.fragment() == "setup=multiplications"
    shoot(page, "shell-setup")

    # "How to play" from the setup screen: the rules, as text
    page.get_by_role("button", name="How to play").click()
    rules = page.locator("dialog.rules-dialog[open]")
    rules.wait_for()
    assert rules.locator("strong").count() > 0 and rules.locator("p").count() > 1
    page.keyboard.press("Escape")
    rules.wait_for(state="detached")

    state = new_from_setup(w, "multiplications", {"k": "3"}, names=names)
    assert [s["name"] for s in state.view()["seats"]] == names
    assert state.options["players"] == 3 and state.history == ()
    seats = page.locator(".seats .seat-name")
    assert seats.all_inner_texts() == names
    assert page.locator(".seats b, .seats script, #view b").count() == 0
    assert page.locator("#status").inner_text() == state.view()["status"]


# -- the game page: replay, undo, summary ----------------------------------------------


def test_replay_leaves_the_game_alone_and_undo_takes_back_one_move(w: Watched, page: Page) -> None:
    state = quetgames.new_game("multiplications").with_seats(["Ann", "Bob"])
    open_record(w, state.record)
    rng = random.Random(7)
    for _ in range(3):
        move = rng.choice(board_moves(page))
        assert click_move(w, move) == (state := state.play(move)).record
    record = state.record
    # each move with its mover, in the engine's words ("2. Bob: x at d2")
    assert page.locator(".move-list .ply").all_inner_texts() == [
        f"{i + 1}. {['Ann', 'Bob'][m['seat']]}: {m['words']}" for i, m in enumerate(state.view()["moves"])]
    shoot(page, "shell-game")

    page.locator('[data-key="ply-1"]').click()
    banner = page.locator(".replay-banner")
    banner.wait_for()
    assert "after move 1 of 3" in banner.inner_text()
    shoot(page, "shell-replay")
    assert w.fragment() == record
    # the board of a past position is a picture (issue 56: nothing to play while stepping back) until
    # "Play a move here"; then it plays side lines (e2e/test_side_lines.py): not inert, marked as a replay
    assert page.locator("#board.replaying [data-move]").count() == 0
    assert page.locator("#board").evaluate("b => b.inert")
    page.locator('.replay-banner [data-key="side-play"]').click()
    page.locator("#board.replaying.side-play [data-move]").first.wait_for()
    assert not page.locator("#board").evaluate("b => b.inert")
    # the line says what the engine says of the position shown, not of the game as it stands
    assert page.locator("#status").inner_text() == quetgames.load(record).position(1).view()["status"]
    page.get_by_role("button", name="First: the start of the game").click()
    banner.filter(has_text="the start of the game").wait_for()
    page.get_by_role("button", name="Forward one move").click()
    banner.filter(has_text="after move 1 of 3").wait_for()
    page.get_by_role("button", name="Forward one move").click()
    banner.filter(has_text="after move 2 of 3").wait_for()
    assert w.fragment() == record
    # undo is for the game as it stands, not a past position
    assert page.locator('[data-key="undo"]').is_disabled()
    page.get_by_role("button", name="Back to the game").click()
    banner.wait_for(state="detached")
    assert w.fragment() == record and page.locator("#board [data-move]").count() > 0

    page.locator('[data-key="undo"]').click()
    taken_back = quetgames.load(record)
    after_undo = quetgames.new_game("multiplications").with_seats(["Ann", "Bob"]).with_game_id(taken_back.game_id)
    for move in taken_back.history[:-1]:
        after_undo = after_undo.play(move)
    assert wait_fragment_change(w, record) == after_undo.record
    page.locator(f'section.game[data-record="{after_undo.record}"]').wait_for()
    assert page.locator(".move-list .ply").count() == 2
    assert page.locator("#status").inner_text() == after_undo.view()["status"]


def test_a_move_redraws_only_what_changed_and_focus_stays_by_identity(w: Watched, page: Page) -> None:
    """The game view draws by region: a move changes the board and the moves
    list, not the head; the board of the game as it stands is drawn in place
    (the same <svg>, only the squares that changed), and so is the moves list
    (the new move appended); a rebuilt region gives focus back to the element
    of the same key, and a region that is not rebuilt keeps its element, focus and all."""
    state = quetgames.new_game("multiplications").with_seats(["Ann", "Bob"])
    open_record(w, state.record)
    page.evaluate("""() => { window.__kept = {head: document.querySelector('.game-head'),
                                              board: document.getElementById('board'),
                                              svg: document.querySelector('#board svg.grid-board'),
                                              list: document.querySelector('.move-list')}; }""")
    played = []
    for _ in range(2):
        move = board_moves(page)[0]
        played.append(move)
        assert click_move(w, move) == (state := state.play(move)).record
    assert page.evaluate("() => window.__kept.head === document.querySelector('.game-head')")
    assert page.evaluate("() => window.__kept.board === document.getElementById('board')")
    assert page.evaluate("() => window.__kept.svg === document.querySelector('#board svg.grid-board')")
    assert page.evaluate("() => window.__kept.list === document.querySelector('.move-list')")
    # what the two moves changed is on that board: an x on each square played, which plays no more
    for move in played:
        square = page.locator(f'#board .cell[data-square="{move}"]')
        assert square.get_attribute("data-move") is None and square.get_attribute("data-try") == move
    assert set(board_moves(page)) == set(state.legal_moves())
    # nothing left over from the squares drawn before: one x a move, a target's two rings once
    assert page.locator("#board .cell-text text.x").count() == 2
    assert page.evaluate("""() => [...document.querySelectorAll('#board .cell')].every((cell) =>
        cell.querySelectorAll('.ring').length === (cell.classList.contains('target') ? 1 : cell.querySelectorAll('.ring').length)
        && cell.querySelectorAll('.ring').length <= 1 && cell.querySelectorAll('.focus-ring').length <= 1)""")
    # one Tab stop on the board drawn in place: the focused square, else a legal one
    stops = page.locator('#board svg.grid-board [tabindex="0"]')
    assert stops.count() == 1
    assert stops.evaluate("el => el === document.activeElement || el.dataset.move != null")
    assert page.evaluate("""() => [...document.querySelectorAll('#board svg.grid-board [tabindex]')]
        .every((el) => el.classList.contains('target') || el === document.activeElement)""")
    assert page.locator(".move-list > li").count() == 2
    # the keyboard on a step button: the moves list is rebuilt, focus stays on "‹ Back"
    # (back to move 1 of 2: "‹ Back" is still there to press)
    back = page.locator('[data-key="back"]')
    back.focus()
    page.evaluate("() => { window.__back = document.activeElement; }")
    page.keyboard.press("Enter")
    page.locator(".replay-banner").wait_for()
    w.wait_ready()
    page.wait_for_function("() => document.activeElement?.dataset.key === 'back' && document.activeElement !== window.__back")
    # a region that did not change keeps the focused element itself
    rules = page.locator('[data-key="rules"]')
    rules.focus()
    page.locator('[data-key="first"]').evaluate("b => b.click()")  # a click that does not move focus
    page.locator(".replay-banner", has_text="the start of the game").wait_for()
    w.wait_ready()
    # focus is given a frame after a draw: let two pass
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    assert page.evaluate("() => document.activeElement?.dataset.key") == "rules"


def test_a_whole_game_ends_with_a_summary_and_play_again(w: Watched, page: Page) -> None:
    state = quetgames.new_game("multiplications", players=3, k=3).with_seats(["Ann", "", "Cleo"])
    open_record(w, state.record)
    rng = random.Random(11)
    while not state.is_over:
        move = rng.choice(board_moves(page))
        assert click_move(w, move) == (state := state.play(move)).record
    view = state.view()
    summary = page.locator("#summary")
    summary.wait_for()
    winners = [view["seats"][s]["name"] for s in view["winners"]]
    assert all(name in summary.locator(".winners").inner_text() for name in winners)
    rows = summary.locator("tbody tr")
    assert rows.count() == 3
    for seat in range(3):
        assert rows.nth(seat).locator("td").inner_text() == str(view["scores"][seat])
        assert view["seats"][seat]["name"] in rows.nth(seat).inner_text()
    assert page.locator("#status").inner_text() == view["status"]
    assert page.locator("#move-form").count() == 0
    shoot(page, "shell-summary")
    page.emulate_media(color_scheme="dark")
    page.screenshot(path=str(ARTIFACTS / "shell-summary-dark.png"), full_page=True)
    page.emulate_media(color_scheme="light")

    page.get_by_role("button", name="Play again").click()
    record = wait_fragment_change(w, state.record)
    again = quetgames.load(record)
    assert again.history == () and again.options == state.options
    assert again.view()["seats"] == view["seats"]
    # the summary's "All games" goes home
    open_record(w, state.record)
    page.locator("#summary a", has_text="All games").click()
    page.locator(".game-card").first.wait_for()


# -- hot seat: Nonconformity's secret picks --------------------------------------------


def board_mentions(page: Page, number: str) -> bool:
    """Whether the number appears as a whole word in the board area's text or
    in an attribute that can carry words or moves (not a drawing's coordinates:
    a number line's y="64" says nothing of a pick of 64)."""
    text = page.locator("#board").evaluate(
        "b => b.innerText + ' ' + [...b.querySelectorAll('*')].flatMap(e => [...e.attributes]"
        ".filter(a => /^(aria-|data-)|^(title|value|alt|label|href|placeholder|name|id)$/.test(a.name)).map(a => a.value)).join(' ')")
    return re.search(rf"(?<!\d){number}(?!\d)", text) is not None


def test_nonconformity_hot_seat_keeps_each_pick_secret(w: Watched, page: Page) -> None:
    state = new_from_setup(w, "nonconformity", {"length": "3", "max_pick": "100", "starts.0": "6", "starts.1": "10"}, names=["Alice", "Bob"])
    rng = random.Random(3)
    for round_ in (1, 2):
        # a new round: Alice is asked to take the device, Bob to look away; no board yet
        curtain = page.locator('.curtain[data-phase="ask"]')
        curtain.wait_for()
        assert "Alice, choose your number" in curtain.inner_text() and "Bob, look away" in curtain.inner_text()
        assert page.locator("#board [data-move]").count() == 0
        page.get_by_role("button", name="I am Alice: show my choices").click()
        page.locator("#board [data-move]").first.wait_for()
        assert page.locator(".secret-banner").inner_text().startswith("Alice")
        if round_ == 1:
            shoot(page, "shell-secret-pick")
        legal = board_moves(page)
        assert legal and set(legal) <= set(state.legal_moves(0))
        pick_a = rng.choice(legal)
        public = w.fragment()
        page.locator(f'#board [data-move="{pick_a}"]').first.click()
        state = state.play(pick_a, 0)
        page.locator('.curtain[data-phase="handover"]').wait_for()
        w.wait_ready()
        # the address keeps the public record: Alice's pick is not in it
        assert w.fragment() == public == state.view()["record"] != state.record

        # hand-over: nothing about Alice's pick anywhere in the page
        handover = page.locator('.curtain[data-phase="handover"]')
        handover.wait_for()
        assert "Pass the device to Bob" in handover.inner_text()
        assert not board_mentions(page, pick_a)
        html = page.content()
        assert state.record not in html, html[max(0, html.find(state.record) - 300):html.find(state.record) + 50]
        assert "data-record" not in page.locator("section.game").evaluate("s => s.outerHTML.slice(0, 200)")
        if round_ == 1:
            shoot(page, "shell-handover")
        page.get_by_role("button", name="I am Bob: show my choices").click()
        page.locator("#board [data-move]").first.wait_for()
        assert not board_mentions(page, pick_a) or pick_a in state.legal_moves(1)
        assert page.locator(".secret-banner").inner_text().startswith("Bob")
        # Bob's board is drawn from his own view: his choices, not Alice's pick
        legal_b = board_moves(page)
        assert legal_b and set(legal_b) <= set(state.legal_moves(1))
        pick_b = rng.choice(legal_b)
        old = w.fragment()
        page.locator(f'#board [data-move="{pick_b}"]').first.click()
        wait_fragment_change(w, old)
        state = state.play(pick_b, 1)
        assert w.fragment() == state.record

        # the reveal, as an event in words
        # (the engine's words for the round: "Round 2: Alice picked 6 and Bob picked 9; Bob scores a point")
        expected = state.last_move_text
        assert expected.startswith(f"Round {round_}: Alice picked {pick_a} and Bob picked {pick_b}; "), expected
        page.locator(".reveal, #note", has_text=f"{expected}.").first.wait_for()

    assert state.is_over
    page.locator("#summary").wait_for()
    assert page.locator("#status").inner_text() == state.view()["status"]


def test_a_hot_seat_pick_survives_a_reload_without_entering_the_address(w: Watched, page: Page) -> None:
    state = quetgames.new_game("nonconformity", length=3, max_pick=100, starts=(6, 10))
    open_record(w, state.record)
    page.get_by_role("button", name="I am Player 1: show my choices").click()
    page.locator("#board [data-move]").first.wait_for()
    pick = board_moves(page)[0]
    page.locator(f'#board [data-move="{pick}"]').first.click()
    page.locator('.curtain[data-phase="handover"]').wait_for()
    w.wait_ready()
    assert w.fragment() == state.record  # public: nothing of the pick
    page.reload()
    w.wait_ready()
    # the device kept the pick: Player 2 is asked to choose, Player 1 is not asked again
    curtain = page.locator(".curtain")
    curtain.wait_for()
    assert curtain.get_attribute("data-seat") == "1"
    assert w.fragment() == state.record
