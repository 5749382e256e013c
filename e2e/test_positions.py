"""Every screen shows the position it names.

One finished game of each of the five games is stepped through ply by ply, on
the game page and in the replay embed (in a frame on a page of another
origin), and so is a side line. At every step, what the screen says is
checked against the engine's own view of that position (the bridge's "at",
called here in Python, as the page calls it in the worker):

- the over / not-over wording of the status line;
- the seat marked to move;
- each seat's score;
- the numbers on the board: only numbers played by then (a preview of a move
  being built, Prime Target's next ring, is marked as such and left out).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import quetgames
from playwright.sync_api import Browser, Frame, Page
from quetgames import bridge

from .harness import Watched, embed_in_host, finished, open_record, shoot

# (game, options, seed): Prime Target with k = 3 and 10 rays, Coprimality with three players
GAMES = [
    ("convoluted-coprimality", {"players": 3, "size": 6}, 1),
    ("enumeration", {"size": 5}, 1),
    ("prime-target", {"k": 3, "rays": 10}, 1),
    ("multiplications", {"k": 3}, 1),
    ("nonconformity", {"length": 4, "max_pick": 100}, 1),
]

# What the screen shows, read in one go: the root names the position shown
# (data-ply, data-line), and the numbers are those drawn on the board, the
# ones marked as a preview left out.
READ_SCREEN = """root => {
  const game = root.querySelector('section.game, .embed-game');
  const status = root.querySelector('#status');
  const seats = [...root.querySelectorAll('ol.seats > li')];
  const board = root.querySelector('#board');
  const numbers = board ? [...board.querySelectorAll('text.num, text.pt-value:not(.preview), .nc-term')]
    .map((e) => e.textContent.trim()).filter((t) => t !== '').map(Number).sort((a, b) => a - b) : null;
  return {
    ply: game?.dataset.ply ?? null, line: game?.dataset.line ?? null,
    status: status?.textContent ?? null, over: status?.classList.contains('over') ?? null,
    toMove: seats.filter((li) => li.classList.contains('to-move')).map((li) => Number(li.dataset.seat)),
    scores: seats.map((li) => li.querySelector('.score')?.textContent.trim() ?? null),
    winners: seats.filter((li) => li.classList.contains('winner')).map((li) => Number(li.dataset.seat)),
    summary: root.querySelector('#summary') !== null,
    numbers,
  };
}"""


def ask(name: str, **args: object) -> dict:
    answer = json.loads(bridge.call(name, json.dumps(args)))
    assert answer["ok"], answer
    return answer["result"]


def played_numbers(view: dict) -> list[int]:
    """Every number written on the board by this position, from the engine's view."""
    b = view["board"]
    game = view["game"]
    if game == "convoluted-coprimality":
        found = [v for row in b["grid"] for v in row]
    elif game == "enumeration":
        found = [v for grid in [b["values"], *b["finished"]] for row in grid for v in row]
    elif game == "prime-target":
        found = [v for ring in b["rings"] for v in ring]
    elif game == "multiplications":
        found = list(b["numbers"].values())
    elif game == "nonconformity":
        found = [v for seq in b["sequences"] for v in seq]
    else:
        raise AssertionError(f"no reading of {game}'s board")
    return sorted(v for v in found if v is not None)


def expected_screen(view: dict) -> dict:
    over = view["is_over"]
    return {
        "over": over,
        "toMove": [] if over else sorted(view["to_move"]),
        "scores": [str(v) for v in (view.get("standing") or view["scores"])],
        "winners": sorted(view["winners"]),
        "numbers": played_numbers(view),
    }


def check(seen: dict, view: dict, where: str) -> None:
    want = expected_screen(view)
    got = {key: seen[key] for key in want}
    got["toMove"] = sorted(got["toMove"])
    assert got == want, f"{view['game']} {where}: the screen shows {got}, the engine says {want}"
    # the wording: the engine's status of that position, and "over" only if it is
    assert seen["status"].startswith(view["status"]), f"{view['game']} {where}: {seen['status']!r} is not {view['status']!r}"
    if not view["is_over"]:
        assert "game over" not in seen["status"].lower(), f"{view['game']} {where}: says the game is over: {seen['status']!r}"


def with_side_line(state: quetgames.State, at: int, length: int, seed: int) -> tuple[str, int, list[dict]]:
    """The record of `state` with a side line of random moves from the first
    position from move `at` on that has a move other than the one played; that
    position's ply; and the engine's view of each position of the line (1 … its length)."""
    rng = random.Random(seed)
    record = state.record
    while True:
        before = ask("at", record=record, ply=at)["view"]
        moves = [m for m in before["legal_moves"] if m != state.history[at]]
        if moves:
            break
        at += 1
    seat = before["to_move"][0]
    made = ask("branch", record=record, ply=at, move=rng.choice(moves), seat=seat)
    record, line = made["record"], made["line"]
    for _ in range(length - 1):
        made_so_far = len(ask("at", record=record, ply=0)["notes"]["lines"][line]["moves"])
        end = ask("at", record=record, ply=made_so_far, line=line)["view"]
        if end["is_over"]:
            break
        record = ask("extend", record=record, line=line, move=rng.choice(end["legal_moves"]), seat=end["to_move"][0])["record"]
    total = len(ask("at", record=record, ply=0)["notes"]["lines"][line]["moves"])
    views = [ask("at", record=record, ply=n, line=line)["view"] for n in range(1, total + 1)]
    return record, at, views


# -- the game page ---------------------------------------------------------------------


def read(page: Page | Frame) -> dict:
    return page.locator("body").evaluate(READ_SCREEN)


def wait_shown(page: Page | Frame, ply: int, line: str | None = None) -> None:
    """Until the root names the position after `ply` moves (of side line `line`, "index:n")."""
    page.wait_for_function(
        """([ply, line]) => {
          const game = document.querySelector('section.game, .embed-game');
          return game && game.dataset.ply === String(ply) && (game.dataset.line ?? null) === line
            && document.documentElement.dataset.engine !== 'busy';
        }""", arg=[ply, line])


@pytest.mark.parametrize(("game", "options", "seed"), GAMES, ids=[g for g, _, _ in GAMES])
def test_the_game_page_shows_each_past_position_as_the_engine_does(w: Watched, game: str, options: dict, seed: int) -> None:
    state = finished(game, seed, **options)
    plies = ask("at", record=state.record, ply=0)["plies"]
    page = w.page
    open_record(w, state.record)
    wait_shown(page, plies)
    check(read(page), ask("at", record=state.record, ply=plies)["view"], f"at the end ({plies})")
    assert read(page)["summary"], "a finished game shows its summary at its end"
    page.locator("[data-key=first]").first.click()
    for ply in range(plies + 1):
        if ply:
            page.locator(".replay-nav [data-key=forward]").click()
        wait_shown(page, ply)
        seen = read(page)
        check(seen, ask("at", record=state.record, ply=ply)["view"], f"after move {ply} of {plies}")
        # the end-of-game summary belongs to the game's end only
        assert seen["summary"] == (ply == plies), f"{game} after move {ply}: summary shown: {seen['summary']}"
        if ply in (plies // 2, plies - 1):
            shoot(page, f"positions-{game}-page-{ply}")
    assert w.errors == []


SIDE_LINES = [
    # Coprimality with three players, a side line from the middle to the end of the game
    ("convoluted-coprimality", {"players": 3, "size": 5}, 2, 0.5),
    # Prime Target, a side line through the rings
    ("prime-target", {"k": 3, "rays": 10}, 1, 0.7),
]


@pytest.mark.parametrize(("game", "options", "seed", "where"), SIDE_LINES, ids=[g for g, *_ in SIDE_LINES])
def test_the_game_page_shows_each_position_of_a_side_line(w: Watched, game: str, options: dict, seed: int, where: float) -> None:
    state = finished(game, seed, **options)
    record, at, views = with_side_line(state, int(len(state.history) * where), 30, seed)
    page = w.page
    open_record(w, record)
    page.locator("[data-key='line-0-1']").click()
    for n, view in enumerate(views, start=1):
        if n > 1:
            page.locator(".replay-nav [data-key=forward]").click()
        wait_shown(page, at + n, f"0:{n}")
        check(read(page), view, f"side line from move {at + 1}, move {n} of {len(views)}")
    shoot(page, f"positions-{game}-page-side-line")
    assert w.errors == []


# -- the replay embed, on a page of another site -----------------------------------------


@pytest.mark.parametrize(("game", "options", "seed"), GAMES, ids=[g for g, _, _ in GAMES])
def test_the_replay_embed_shows_each_position_as_the_engine_does(browser: Browser, server: str, host: tuple[str, Path],
                                                                  game: str, options: dict, seed: int) -> None:
    state = finished(game, seed, **options)
    plies = ask("at", record=state.record, ply=0)["plies"]
    page, frame = embed_in_host(browser, host, f"{server}embed.html?mode=replay&ply=0#{state.record}")
    try:
        for ply in range(plies + 1):
            if ply:
                frame.locator(".embed-steps [data-key=forward]").click()
            wait_shown(frame, ply)
            check(read(frame), ask("at", record=state.record, ply=ply)["view"], f"embed, after move {ply} of {plies}")
            if ply == plies // 2:
                shoot(page, f"positions-{game}-embed-{ply}")
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        page.context.close()


def test_the_replay_embed_shows_each_position_of_a_side_line(browser: Browser, server: str, host: tuple[str, Path]) -> None:
    game, options, seed, where = SIDE_LINES[0]
    state = finished(game, seed, **options)
    record, at, views = with_side_line(state, int(len(state.history) * where), 30, seed)
    page, frame = embed_in_host(browser, host, f"{server}embed.html?mode=replay&ply=0#{record}")
    try:
        frame.locator(".embed-moves summary").click()  # (the moves and side lines: a panel the reader opens)
        frame.locator("[data-key='line-0-1']").click()
        for n, view in enumerate(views, start=1):
            if n > 1:
                frame.locator(".embed-steps [data-key=forward]").click()
            wait_shown(frame, at + n, f"0:{n}")
            check(read(frame), view, f"embed, side line from move {at + 1}, move {n} of {len(views)}")
        shoot(page, "positions-embed-side-line")
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        page.context.close()


def test_keys_faster_than_the_screen_each_take_a_step_from_the_position_asked(w: Watched) -> None:
    """Enter on a move and then arrow keys, pressed without waiting for the
    screen: each key steps from the position the one before asked for, and
    none is lost (a quick player's keys, and a loaded machine's)."""
    state = finished("enumeration", 3, size=5)
    page = w.page
    open_record(w, state.record)
    page.locator("[data-key='ply-2']").focus()
    page.keyboard.press("Enter")
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    wait_shown(page, 6)
    page.wait_for_function("() => document.activeElement?.dataset.key === 'ply-6'")
    check(read(page), ask("at", record=state.record, ply=6)["view"], "after Enter on move 2, five steps on and one back")
    # Home and End: the first and last moves of the line
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    wait_shown(page, 2)
    page.keyboard.press("End")
    wait_shown(page, len(state.history))
    assert w.errors == []
