"""Computer seats in the page, used like a person would: a game against the
computer played to the end by clicking, a game between computers watched at a
chosen pace, Cancel while a strong computer thinks, the Hint button,
Nonconformity's secret picks against the computer, undo, and the best possible
score of solitaire Enumeration.

Every computer move the page plays is checked against the Python engine
(`quetgames.computer_move` with the bridge's seed: the number of moves played).
The page is opened with ?computer-budget=S (test-only) so strong moves and
hints take S seconds; random and greedy answer at once anyway.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
import quetgames
from playwright.sync_api import Browser, Page

from .harness import Watched, board_moves, click_move, go, new_from_setup, shoot, wait_fragment_change, watched_page



def open_page(browser: Browser, server: str, budget: float, *, clock: bool = False) -> Watched:
    """clock: the page's timers are Playwright's (still running in real time),
    so that a test can run them ahead (`run_timers`)."""
    w = watched_page(browser, server, timeout_ms=30_000)
    if clock:
        w.page.clock.install()
    w.goto_ready(f"{server}?computer-budget={budget}")
    return w


def run_timers(page: Page, ms: int) -> None:
    """Fire every page timer due in the next `ms` (a paced or rescheduled
    computer move would set <html data-computer=thinking> in its callback),
    then let what they started settle for a frame."""
    page.clock.run_for(ms)
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => setTimeout(done)))")


@pytest.fixture(scope="module")
def w(browser: Browser, server: str) -> Iterator[Watched]:
    watched = open_page(browser, server, 0.3)
    yield watched
    watched.context.close()


# -- helpers -------------------------------------------------------------------------


def settle(w: Watched) -> None:
    """Wait until no computer is choosing and a person can act (or the game is over)."""
    w.page.wait_for_function(
        """() => document.documentElement.dataset.engine === 'ready'
             && document.documentElement.dataset.computer !== 'thinking'
             && (document.querySelector('#summary') || document.querySelector('#board [data-move]')
                 || document.documentElement.dataset.computer !== 'idle')""")


def check_computer_moves(record: str) -> None:
    """Every move of a computer seat in the record is the engine's move with the bridge's seed."""
    final = quetgames.load(record)
    kinds = [s["kind"] for s in final.view()["seats"]]
    moves = final.history
    state = quetgames.new_game(final.game.id, **final.options).with_seats([""] * final.players, kinds)
    for move in moves:
        seat = state.to_move[0]
        if kinds[seat] != "human":
            expected = quetgames.computer_move(state, seat, kinds[seat], seed=len(state.history))
            assert move == expected, (len(state.history), move, expected)
        state = state.play(move, seat)
    assert state.history == final.history and state.is_over == final.is_over


# -- tests ---------------------------------------------------------------------------


def test_a_game_against_greedy_to_the_end_by_clicking_with_undo(w: Watched, page: Page) -> None:
    state = new_from_setup(w, "multiplications", {}, kinds=["human", "greedy"])
    rng = random.Random(6)
    assert page.locator(".seats li").nth(1).locator(".seat-kind").inner_text() == "computer, medium"
    turns = replies = 0
    undone = False
    while True:
        settle(w)
        state = quetgames.load(w.fragment())
        if state.is_over:
            break
        assert state.to_move == (0,)  # the computer has answered every move
        legal = board_moves(page)
        assert legal and set(legal) <= set(state.legal_moves())
        before = len(state.history)
        click_move(w, rng.choice(legal))
        # the computer's reply follows on its own (the fragment records both)
        settle(w)
        after = quetgames.load(w.fragment())
        assert len(after.history) > before and (after.to_move == (0,) or after.is_over)
        replies += len(after.history) - before - 1
        turns += 1
        if turns >= 2 and not undone and len(after.history) >= before + 2:
            # take back: the person's last move and the computer's reply go together
            undone = True
            page.locator("[data-key=undo]").click()
            page.wait_for_function("n => decodeURIComponent(location.hash.slice(1)) !== n", arg=after.record)
            settle(w)
            back = quetgames.load(w.fragment())
            assert back.history == after.history[:before] and back.to_move == (0,)
            assert "computer's reply" in page.locator("#note").inner_text()
    page.locator("#summary").wait_for()
    assert replies >= 5
    check_computer_moves(w.fragment())
    assert page.locator("#status").inner_text() == state.view()["status"]


def test_computers_watched_at_fast_pace_to_the_summary(browser: Browser, server: str) -> None:
    w = open_page(browser, server, 0.3, clock=True)
    page = w.page
    try:
        watch_to_the_summary(w, page)
    finally:
        w.context.close()


def watch_to_the_summary(w: Watched, page: Page) -> None:
    new_from_setup(w, "prime-target", {}, kinds=["random", "greedy"])
    bar = page.locator("#computer-bar")
    bar.locator("select#pace").wait_for()
    assert bar.locator("select#pace").input_value() == "normal"
    # normal pace: a move every 0.6 s; Pause holds the game where it is
    page.locator("html[data-computer=thinking]").wait_for(state="attached")
    shoot(page, "computer-watch")
    bar.get_by_role("button", name="Pause").click()
    page.locator("html[data-computer=paused]").wait_for(state="attached")
    w.wait_ready()
    held = w.fragment()
    run_timers(page, 3_000)  # five normal-pace moves' time: none is made
    assert page.locator("html[data-computer=paused]").count() == 1
    assert w.fragment() == held
    assert page.locator("#board [data-move]").count() == 0
    bar.locator("select#pace").select_option("fast")
    bar.get_by_role("button", name="Resume").click()
    page.locator("#summary").wait_for(timeout=90_000)
    final = quetgames.load(w.fragment())
    assert final.is_over
    check_computer_moves(final.record)
    assert page.locator("#computer-bar").count() == 0
    assert w.errors == []


def test_nonconformity_between_computers_each_picks_from_the_public_record(w: Watched, page: Page) -> None:
    new_from_setup(w, "nonconformity", {"length": "4", "max_pick": "100"}, kinds=["random", "greedy"])
    page.locator("#computer-bar select#pace").select_option("fast")
    page.locator("#summary").wait_for(timeout=60_000)
    final = quetgames.load(w.fragment())
    assert final.is_over and page.locator(".curtain").count() == 0
    state = quetgames.new_game("nonconformity", **final.options).with_seats(["", ""], ["random", "greedy"])
    for i in range(0, len(final.history), 2):
        public = state
        picks = final.history[i:i + 2]
        for seat, level in ((0, "random"), (1, "greedy")):
            if picks[seat] != "-":
                assert picks[seat] == quetgames.computer_move(public, seat, level, seed=len(public.history))
                state = state.play(picks[seat], seat)


def test_hint_shows_a_legal_move_and_plays_nothing(w: Watched, page: Page) -> None:
    state = new_from_setup(w, "multiplications", {}, kinds=["human", "human"])
    record = w.fragment()
    hint = page.locator("[data-key=hint]")
    assert hint.is_enabled()
    hint.click()
    page.locator("#note", has_text="Hint:").wait_for()
    move = page.locator("#board .hinted").first.get_attribute("data-move")
    assert move in board_moves(page) and move in state.legal_moves()
    # the hint in the engine's words for the moves list, not its notation
    assert page.locator("#note").inner_text().strip() == f"Hint: {state.move_words(move)}"
    assert w.fragment() == record
    shoot(page, "computer-hint")
    # not while replaying: no bar, no hint
    click_move(w, move)
    page.locator("[data-key=back]").click()
    page.locator(".replay-banner").wait_for()
    assert page.locator("[data-key=hint]").count() == 0
    page.locator("[data-key=exit-replay]").click()
    page.locator("[data-key=hint]").wait_for()


def test_nonconformity_the_computer_picks_first_from_the_public_record(w: Watched, page: Page) -> None:
    new_from_setup(w, "nonconformity", {"length": "3", "max_pick": "100", "starts.0": "6", "starts.1": "10"}, kinds=["human", "greedy"])
    rng = random.Random(4)
    for round_ in (1, 2):
        banner = page.locator(".computer-pick")
        banner.wait_for()
        settle(w)
        assert "Player 2 has chosen in secret" in banner.inner_text()
        # no hand-over screen, and the computer's pick is in neither the link nor the page's record
        assert page.locator(".curtain").count() == 0
        public = w.fragment()
        state = quetgames.load(public)
        assert state.to_move == (0, 1) and len(state.history) == 2 * (round_ - 1)
        if round_ == 1:
            shoot(page, "computer-nonconformity-pick")
        legal = board_moves(page)  # (long lists of picks sit in closed <details>: this opens them)
        assert legal and set(legal) <= set(state.legal_moves(0))
        pick = rng.choice(legal)
        click_move(w, pick)
        after = quetgames.load(w.fragment())
        expected = quetgames.computer_move(state, 1, "greedy", seed=len(state.history))
        assert after.history[-2:] == (pick, expected)
        # the round in the engine's words ("Round 2: Player 1 picked 6 and Player 2 picked 9; …")
        assert f"Player 1 picked {pick} and Player 2 picked {expected}" in after.last_move_text
        page.locator(".reveal, #note", has_text=after.last_move_text).first.wait_for()
    page.locator("#summary").wait_for()


def test_solitaire_enumeration_shows_the_best_possible_score(w: Watched, page: Page) -> None:
    new_from_setup(w, "enumeration", {"players": "1", "size": "5"}, kinds=["human"])
    best = page.locator(".best-score")
    best.wait_for()
    exact = quetgames.players.solitaire_best(5, "corner")
    assert exact["exact"] and best.inner_text() == f"best possible: {exact['score']}"
    shoot(page, "computer-solitaire-best")
    new_from_setup(w, "enumeration", {"players": "1", "size": "8"}, kinds=["human"])
    found = quetgames.players.solitaire_best(8, "corner")
    assert not found["exact"]
    page.locator(".best-score", has_text=f"best possible: at least {found['score']} (best found)").wait_for()


def test_cancel_restarts_the_engine_and_keeps_the_game(browser: Browser, server: str) -> None:
    w = open_page(browser, server, 9, clock=True)  # strong thinks 9 s: long enough to cancel
    page = w.page
    workers: list[str] = []
    page.on("worker", lambda worker: workers.append(worker.url))
    try:
        new_from_setup(w, "multiplications", {}, kinds=["strong", "human"])
        record = w.fragment()
        bar = page.locator("#computer-bar")
        bar.get_by_text("Player 1 (strong) is thinking…").wait_for()
        page.locator(".think-progress.running").wait_for()
        assert page.locator("#board [data-move]").count() == 0
        shoot(page, "computer-thinking")
        bar.get_by_role("button", name="Cancel").click()
        page.locator("html[data-computer=stopped]").wait_for(state="attached", timeout=60_000)
        assert len(workers) == 1  # a new worker was started
        assert w.fragment() == record and quetgames.load(record).history == ()
        assert page.locator(".move-list .no-moves").count() == 1
        assert "was stopped" in page.locator("#note").inner_text()
        # it does not start again by itself; the person may make its move
        run_timers(page, 3_000)
        assert page.locator("html[data-computer=stopped]").count() == 1
        shoot(page, "computer-stopped")
        moves = board_moves(page)
        assert moves
        click_move(w, moves[0])
        after = quetgames.load(w.fragment())
        assert after.history == (moves[0],)
        assert w.errors == []
    finally:
        w.context.close()
