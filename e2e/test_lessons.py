"""Lessons (web/features/lesson.js, the #learn= page of web/app.js, docs/LEARN.md),
played like a person: each game's whole lesson, once by keyboard alone at a
desktop (Tab, arrows, Enter) and once by touch on a 390 x 844 phone. In each
lesson one move the engine refuses and one legal move that misses the task,
and every answer shown is checked against the engine's own words, asked here
in Python (quetgames.bridge, the same call the page makes); the last step's
game is played from the board to its end. Then: on a phone the task and the
board are on the first screen; Learn is found on the game cards, the setup
screen and How to play; a finished lesson says so on its card, and a lesson
begun opens where it was left; Show the answer and Skip; a browser that
refuses storage still plays; axe finds nothing wrong on a lesson page, asked
and answered, light and dark.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import quetgames
from quetgames import bridge
from playwright.sync_api import Browser, Frame, Locator, Page

from .axe import assert_clean
from .harness import ARTIFACTS, Watched, embed_in_host, go, shoot, unfold, watched_page

PHONE = {"width": 390, "height": 844}
GAMES = list(quetgames.GAMES)
CHECKED = ("gain", "proved", "words")  # steps with a stated answer: a legal move can miss it


def lesson(**args: object) -> dict:
    """The bridge's lesson call, as the page makes it."""
    reply = json.loads(bridge.call("lesson", json.dumps(args)))
    assert reply["ok"], reply
    return reply["result"]


LESSONS = {game: lesson(game=game) for game in GAMES}


@pytest.fixture(scope="module")
def phone(browser: Browser, server: str) -> Iterator[Watched]:
    """A phone held upright, played by touch."""
    watched = watched_page(browser, server, viewport=PHONE, timeout_ms=30_000, has_touch=True, is_mobile=True)
    watched.goto_ready(server)
    yield watched
    watched.context.close()


# -- acting on the page: by keyboard or by touch --------------------------------------------


class Keyboard:
    """A person with a keyboard only: Tab to a control, arrows between a board's targets, Enter."""

    name = "keyboard"

    def __init__(self, page: Page) -> None:
        self.page = page

    def reach(self, target: Locator) -> None:
        """Move the focus to `target` with Tab / Shift+Tab, and the arrow keys inside a board."""
        seen: dict[str, int] = {}
        for _ in range(200):
            where = target.evaluate("""(t) => {
              const a = document.activeElement;
              if (a === t) return {done: true};
              const box = (el) => { const r = el.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; };
              const group = t.closest('svg, [role=group]');
              const roving = !!group && group.matches('svg') && a !== document.body && group.contains(a) && a.matches('.target, [role=switch]');
              const [tx, ty] = box(t), [ax, ay] = box(a);
              const behind = !!(t.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING);  // the focus is past the target
              return {done: false, roving, dx: tx - ax, dy: ty - ay, behind,
                      at: (a.getAttribute('aria-label') || a.textContent || a.tagName).slice(0, 60)};
            }""")
            if where["done"]:
                return
            seen[where["at"]] = seen.get(where["at"], 0) + 1
            if where["roving"]:
                dx, dy = where["dx"], where["dy"]
                horizontal = abs(dx) >= abs(dy)
                key = ("ArrowRight" if dx > 0 else "ArrowLeft") if horizontal else ("ArrowDown" if dy > 0 else "ArrowUp")
                if seen[where["at"]] > 1:
                    # been here: a board whose arrows go round its targets in order (Prime Target's ring)
                    key = "ArrowRight"
                if seen[where["at"]] > 4:
                    raise AssertionError(f"the arrow keys do not reach {target}: stuck at {where['at']}")
                self.page.keyboard.press(key)
            else:
                self.page.keyboard.press("Shift+Tab" if where["behind"] else "Tab")
        raise AssertionError(f"the keyboard does not reach {target}")

    def press(self, target: Locator) -> None:
        self.reach(target)
        self.page.keyboard.press("Enter")

    def type_into(self, field: Locator, text: str, submit: Locator) -> None:
        self.reach(field)
        self.page.keyboard.type(text)
        self.page.keyboard.press("Enter")

    def unfold(self) -> None:
        folded = self.page.locator("#board details:not([open]) > summary")
        while folded.count():
            self.press(folded.first)


# Where a press lands on an element: its box's middle, or (a ring's wedge,
# whose box's middle is another wedge) its point nearest that middle that a
# press there reaches; relative to its box, so it serves a page and a frame.
POINT = """(el) => {
  const r = el.getBoundingClientRect(), cx = r.width / 2, cy = r.height / 2;
  const reaches = (x, y) => { const hit = document.elementFromPoint(r.x + x, r.y + y); return hit === el || el.contains(hit); };
  if (reaches(cx, cy)) return [cx, cy];
  let best = null, far = Infinity;
  for (let i = 1; i < 20; i++) for (let j = 1; j < 20; j++) {
    const x = r.width * i / 20, y = r.height * j / 20, d = Math.hypot(x - cx, y - cy);
    if (d < far && reaches(x, y)) { best = [x, y]; far = d; }
  }
  return best;
}"""


def point_of(target: Locator) -> dict[str, float]:
    """Where on `target` a press lands (POINT), once it is scrolled into view."""
    target.scroll_into_view_if_needed()
    at = target.evaluate(POINT)
    assert at, f"no point of {target} can be pressed"
    return {"x": at[0], "y": at[1]}


class Touch:
    """A person tapping a touch screen, on a page or in a frame: a tap where the target shows (POINT)."""

    name = "touch"

    def __init__(self, page: Page | Frame) -> None:
        self.page = page

    def press(self, target: Locator) -> None:
        target.tap(position=point_of(target))

    def type_into(self, field: Locator, text: str, submit: Locator) -> None:
        field.tap()
        field.fill(text)
        submit.tap()

    def unfold(self) -> None:
        folded = self.page.locator("#board details:not([open]) > summary")
        while folded.count():
            folded.first.tap()


class Mouse:
    """A person with a mouse: click the target."""

    name = "mouse"

    def __init__(self, page: Page) -> None:
        self.page = page

    def press(self, target: Locator) -> None:
        target.click()

    def type_into(self, field: Locator, text: str, submit: Locator) -> None:
        field.fill(text)
        submit.click()

    def unfold(self) -> None:
        unfold(self.page)


class Pointer(Mouse):
    """A mouse that clicks where `target` shows (POINT). Works in a frame as on a page."""

    name = "pointer"

    def press(self, target: Locator) -> None:
        target.click(position=point_of(target))


STEP = "section.lesson-step"


def step_box(page: Page) -> Locator:
    return page.locator(STEP)


def said(page: Page) -> str:
    return page.locator("#lesson-said .lesson-said").inner_text()


def open_lesson(w: Watched, game: str) -> None:
    w.page.evaluate("() => { try { localStorage.removeItem('quetgames.lessons'); } catch {} }")
    if w.fragment() == f"learn={game}":
        go(w, "", wait=True)  # (so that the lesson's address is a change, and opens it anew)
    go(w, f"learn={game}", wait=True)
    w.page.locator(f'section.learn[data-game="{game}"] {STEP}[data-step]').wait_for()


def wait_step(page: Page, step: dict) -> None:
    page.locator(f'{STEP}[data-step="{step["id"]}"][data-phase="ask"]').wait_for()
    task = page.locator("#lesson-said .lesson-task")
    page.wait_for_function("(t) => document.querySelector('#lesson-said .lesson-task').textContent.includes(t)", arg=step["task"])
    assert task.inner_text().endswith(step["task"])
    assert page.locator(".lesson-step-title").inner_text() == f"Step {step['number']} of {len(LESSONS[page_game(page)]['steps'])}"


def page_game(page: Page) -> str:
    return page.locator("section.learn").get_attribute("data-game")


def answered(page: Page, before: int) -> None:
    """Wait until the page has the engine's answer to one more move."""
    page.wait_for_function(f"n => Number(document.querySelector('{STEP}').dataset.replies) > n", arg=before)


def replies(page: Page) -> int:
    return int(step_box(page).get_attribute("data-replies") or 0)


def play_move(page: Page, act, move: str) -> None:
    """Play `move` from the board as a person would: its target, or what the
    game's board asks first (Prime Target: the number, then the wedge, or each
    wedge's sign, then Play this ring; Nonconformity: the number typed)."""
    board = page.locator("#board")
    game = page_game(page)
    if game == "prime-target" and "@" in move:
        value, _wedge = move.split("@")
        act.press(board.locator(f'.pt-value-choice[data-value="{value}"]'))
        act.press(board.locator(f'[data-move="{move}"]'))
        return
    if game == "prime-target":
        for i, sign in enumerate(move):
            wedge = board.locator("[role=switch]").nth(i)
            if (wedge.get_attribute("aria-checked") == "true") != (sign == "-"):
                act.press(wedge)
                page.wait_for_function("([w, on]) => document.querySelectorAll('#board [role=switch]')[w].getAttribute('aria-checked') === on",
                                       arg=[i, "true" if sign == "-" else "false"])
        page.locator(f'#board .pt-play-ring[data-move="{move}"]').wait_for()
        act.press(board.locator(".pt-play-ring"))
        return
    target = board.locator(f'[data-move="{move}"]')
    if target.count() == 0:
        act.unfold()
    if game == "nonconformity" and target.count() == 0:
        act.type_into(board.locator("#nc-pick"), move, board.get_by_role("button", name="Choose it"))
        return
    act.press(target.first)


def refuse_one(page: Page, act, game: str, step: dict) -> bool:
    """Try a move the engine refuses, if this step's board offers one (a
    square that is not legal, or a number typed): the engine's reason is
    shown and the board stays as it was. True if one was tried."""
    board = page.locator("#board")
    tries = board.locator("[data-try]")
    if game == "nonconformity":
        move = next(str(n) for n in range(2, 101) if str(n) not in step["view"]["legal_moves"])
    elif tries.count():
        move = tries.first.get_attribute("data-try")
    else:
        return False
    expected = lesson(game=game, step=step["id"], move=move)
    assert expected["refused"], expected
    before = replies(page)
    if game == "nonconformity":
        act.type_into(board.locator("#nc-pick"), move, board.get_by_role("button", name="Choose it"))
    else:
        act.press(tries.first)
    answered(page, before)
    assert said(page) == expected["words"]
    assert page.locator("#lesson-said .lesson-said").get_attribute("data-answer") == "refused"
    assert step_box(page).get_attribute("data-phase") == "ask" and board.get_attribute("data-still") == "false"
    return True


def miss_one(page: Page, act, game: str, step: dict) -> bool:
    """Play a legal move that misses the task: what it leads to is shown,
    still, with Try again and Show the answer; then Try again. True if played."""
    right = set(lesson(game=game, step=step["id"], answer=True)["moves"])
    drawn = set(page.locator("#board [data-move]").evaluate_all("els => els.map((e) => e.dataset.move)"))
    legal = step["view"]["legal_moves"]
    # a target drawn on the board, or (Prime Target's rings) a sign pattern the board builds
    wrong = next((m for m in legal if m not in right and (m in drawn or game in ("prime-target", "nonconformity"))), None)
    if wrong is None:
        return False
    expected = lesson(game=game, step=step["id"], move=wrong)
    assert not expected["right"] and not expected["refused"], expected
    before = replies(page)
    play_move(page, act, wrong)
    answered(page, before)
    assert said(page) == expected["words"]
    page.locator(f'{STEP}[data-phase="wrong"] #board[data-still="true"]').wait_for()
    act.press(page.get_by_role("button", name="Show the answer"))
    shown = lesson(game=game, step=step["id"], answer=True)
    page.wait_for_function("t => document.querySelector('#lesson-said .lesson-answer').textContent.includes(t)", arg=shown["words"])
    act.press(page.get_by_role("button", name="Try again"))
    page.locator(f'{STEP}[data-phase="ask"] #board[data-still="false"]').wait_for()
    return True


def play_lesson(w: Watched, game: str, act, shots: str | None = None) -> None:
    """The whole lesson of `game`, step by step, as `act` (Keyboard or Touch) plays."""
    open_lesson(w, game)
    play_steps(w.page, game, act, shots)


def play_steps(page: Page | Frame, game: str, act, shots: str | None = None, full: str | None = None) -> None:
    """Every step of the lesson on screen (a page's, or an embed frame's), from
    its first, as `act` plays; `full`: where "Play a full game" leads."""
    refused = missed = False
    for step in LESSONS[game]["steps"]:
        wait_step(page, step)
        if shots and step["number"] == 1:
            page.screenshot(path=str(ARTIFACTS / f"{shots}-step1.png"))
        if step["check"] == "play":
            play_game(page, act, game, step, shots, full)
            continue
        if not refused:
            refused = refuse_one(page, act, game, step)
        if not missed and step["check"] in CHECKED:
            missed = miss_one(page, act, game, step)
        move = lesson(game=game, step=step["id"], answer=True)["moves"][0]
        expected = lesson(game=game, step=step["id"], move=move)
        assert expected["right"], expected
        before = replies(page)
        play_move(page, act, move)
        answered(page, before)
        assert said(page) == expected["words"]
        page.locator(f'{STEP}[data-phase="right"] #board[data-still="true"]').wait_for()
        if shots and step["number"] == 2:
            page.screenshot(path=str(ARTIFACTS / f"{shots}-right.png"))
        act.press(page.get_by_role("button", name="Next step"))
    assert refused, f"no move of the {game} lesson was refused"
    assert missed, f"no legal move of the {game} lesson missed its task"
    # finished: kept on this device
    kept = page.evaluate("() => JSON.parse(localStorage.getItem('quetgames.lessons'))")[game]
    assert kept["finished"] is True and kept["total"] == len(LESSONS[game]["steps"])
    assert set(kept["done"]) == {s["id"] for s in LESSONS[game]["steps"]}


def play_game(page: Page | Frame, act, game: str, step: dict, shots: str | None, full: str | None = None) -> None:
    """The lesson's last step: a short game against the computer, played from
    the board (any legal move) until it is over; the first answer's words are
    the engine's for that record."""
    board = page.locator("#board")
    first = True
    for _ in range(60):
        record = board.get_attribute("data-record")
        state = quetgames.load(record)
        legal = state.legal_moves(step["seat"])
        drawn = board.locator("[data-move]").evaluate_all("els => els.map((e) => e.dataset.move)")
        move = next((m for m in drawn if m in legal), legal[0])
        before = replies(page)
        play_move(page, act, move)
        answered(page, before)
        if first:
            expected = lesson(game=game, step=step["id"], move=move, record=record)
            assert said(page) == expected["words"], (said(page), expected)
            first = False
        if step_box(page).get_attribute("data-phase") == "over":
            break
        page.wait_for_function("r => document.querySelector('#board').dataset.record !== r", arg=record)
    else:
        raise AssertionError(f"the {game} lesson's game did not end")
    assert said(page).strip(), "the game's end is said"
    assert "Game over" in said(page)
    if shots:
        page.screenshot(path=str(ARTIFACTS / f"{shots}-over.png"))
    assert page.get_by_role("button", name="Play again").is_visible()
    # (issue 46: one main button at the end, Play again; Finish was styled as one too)
    main = page.locator(".lesson-buttons > :not([hidden]):not(.secondary)").all_inner_texts()
    assert main == ["Play again"], main
    # (issue 46: a full game against the computer at the lesson's level, not the setup page)
    href = page.get_by_role("link", name="Play a full game").get_attribute("href")
    base = (full or f"#setup={game}").split("#")[0]
    assert href.startswith(f"{base}#"), href
    from quetgames.registry import load
    full_game = load(href.split("#", 1)[1])
    assert full_game.game.id == game and [s.kind for s in full_game.seats] == ["human", "random"], href


# -- the tests ---------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_lesson_by_keyboard(w: Watched, page: Page, game: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    play_lesson(w, game, Keyboard(page), shots=f"lesson-{game}-desktop")
    assert w.errors == []


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_lesson_by_touch_on_a_phone(phone: Watched, game: str) -> None:
    phone.errors.clear()
    ARTIFACTS.mkdir(exist_ok=True)
    play_lesson(phone, game, Touch(phone.page), shots=f"lesson-{game}-phone")
    assert phone.errors == []


def test_the_task_and_board_on_a_phones_first_screen(phone: Watched) -> None:
    """At 390 x 844 the step, its task and the board (its first 300 px) are on the first screen."""
    page = phone.page
    for game in GAMES:
        open_lesson(phone, game)
        page.evaluate("() => window.scrollTo(0, 0)")
        for what in (".lesson-task", "#board svg, #board .nc-board"):
            box = page.locator(what).first.bounding_box()
            assert box and box["y"] >= 0 and box["y"] + min(box["height"], 300) <= PHONE["height"], (game, what, box)
    # held sideways: the board on the left, the task beside it, both on the first screen
    page.set_viewport_size({"width": PHONE["height"], "height": PHONE["width"]})
    try:
        for game in ("convoluted-coprimality", "prime-target"):
            open_lesson(phone, game)
            task = page.locator(".lesson-task:not(.visually-hidden)").bounding_box()  # (the shown task; the live region has a hidden copy)
            board = page.locator("#board").bounding_box()
            assert task["y"] + task["height"] <= PHONE["width"] and board["y"] < 100 and board["x"] + board["width"] <= task["x"], (game, task, board)
    finally:
        page.set_viewport_size(PHONE)


def test_learn_is_found_from_a_card_the_setup_and_how_to_play(w: Watched, page: Page) -> None:
    page.evaluate("() => { try { localStorage.removeItem('quetgames.lessons'); } catch {} }")
    go(w, "learn=none-here", wait=True)  # (a lesson of no game: the home page, saying so)
    assert "no lesson" in page.locator("#view").inner_text()
    card = page.locator("#game-enumeration")
    card.get_by_role("link", name="Learn Enumeration by playing (one minute)").click()
    page.locator(f'section.learn[data-game="enumeration"] {STEP}[data-step]').wait_for()
    assert "a game invented by Leroy Quet" in page.locator("section.learn").inner_text()
    page.get_by_role("link", name="All games").click()
    page.locator("#game-enumeration").wait_for()

    go(w, "setup=prime-target", wait=True)
    page.locator(".setup-screen").get_by_role("link", name="Learn by playing (one minute)").click()
    page.locator(f'section.learn[data-game="prime-target"] {STEP}[data-step]').wait_for()

    go(w, "setup=nonconformity", wait=True)
    page.get_by_role("button", name="How to play").click()
    dialog = page.locator("dialog.rules-dialog[open]")
    shoot(page, "lesson-in-how-to-play")
    dialog.get_by_role("link", name="Learn by playing (one minute)").click()
    page.locator(f'section.learn[data-game="nonconformity"] {STEP}[data-step]').wait_for()
    assert page.locator("dialog[open]").count() == 0


def test_a_finished_lesson_says_so_on_its_card(w: Watched, page: Page) -> None:
    page.evaluate("""() => localStorage.setItem('quetgames.lessons', JSON.stringify({
      'multiplications': {total: 5, done: ['mark', 'last-x', 'most', 'long-run', 'game'], finished: true},
      'enumeration': {total: 7, done: ['first', 'above'], finished: false},
      'prime-target': 'not an entry'}))""")
    go(w, "setup=multiplications", wait=True)
    go(w, "", wait=True)
    assert page.locator("#game-multiplications .learned").inner_text() == "Learned: lesson finished"
    assert page.locator("#game-enumeration .learned").inner_text() == "Lesson: 2 of 7 steps done"
    assert page.locator("#game-prime-target .learned").count() == 0
    shoot(page, "lesson-cards")
    # a lesson begun opens where it was left
    go(w, "learn=enumeration", wait=True)
    page.locator(f'{STEP}[data-step="corner-low"]').wait_for()
    # storage that cannot be read is no lesson begun
    page.evaluate("() => localStorage.setItem('quetgames.lessons', '{not json')")
    go(w, "", wait=True)
    assert page.locator(".learned").count() == 0
    page.evaluate("() => localStorage.removeItem('quetgames.lessons')")


def test_show_the_answer_and_skip_every_step(w: Watched, page: Page) -> None:
    """Show the answer before any move: the engine's answer, its targets
    marked on the board; Skip through every step: the lesson ends, not
    finished (its game was not played), and nothing is kept as done."""
    game = "multiplications"
    open_lesson(w, game)
    steps = LESSONS[game]["steps"]
    wait_step(page, steps[0])
    page.get_by_role("button", name="Show the answer").click()
    shown = lesson(game=game, step=steps[0]["id"], answer=True)
    answer = page.locator("#lesson-said .lesson-answer")
    page.wait_for_function("() => document.querySelector('#lesson-said .lesson-answer').textContent !== ''")
    assert answer.inner_text() == f"The answer: {shown['words']}"
    assert page.locator("#board .hinted[data-move]").count() == len(shown["moves"])
    for step in steps:
        wait_step(page, step)
        page.get_by_role("button", name="Skip the game" if step["check"] == "play" else "Skip this step").click()
    end = page.locator('section.lesson-end[data-finished="false"]')
    end.wait_for()
    assert "still to play" in end.inner_text()
    assert page.evaluate("() => localStorage.getItem('quetgames.lessons')") is None
    end.get_by_role("button", name="Play the short game again").click()
    wait_step(page, steps[-1])


def test_a_lesson_where_storage_is_refused(browser: Browser, server: str) -> None:
    """A browser that refuses every read and write of storage: the cards are
    drawn, the lesson plays through a right answer and on, and nothing breaks."""
    watched = watched_page(browser, server, timeout_ms=30_000)
    watched.context.add_init_script(
        "for (const name of ['getItem', 'setItem', 'removeItem']) "
        "Storage.prototype[name] = function () { throw new DOMException('refused', 'SecurityError'); };")
    try:
        watched.goto_ready(server)
        page = watched.page
        assert page.locator(".game-card .learn").count() == len(GAMES)
        go(watched, "learn=convoluted-coprimality", wait=True)
        step = LESSONS["convoluted-coprimality"]["steps"][0]
        wait_step(page, step)
        move = lesson(game="convoluted-coprimality", step=step["id"], answer=True)["moves"][0]
        play_move(page, Mouse(page), move)
        page.locator(f'{STEP}[data-phase="right"]').wait_for()
        page.get_by_role("button", name="Next step").click()
        wait_step(page, LESSONS["convoluted-coprimality"]["steps"][1])
        assert watched.errors == []
    finally:
        watched.context.close()


def test_axe_on_a_lesson_page(w: Watched, page: Page) -> None:
    for game in ("convoluted-coprimality", "prime-target", "nonconformity"):
        open_lesson(w, game)
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            assert_clean(page, f"the {game} lesson, {scheme}")
        # answered: the words, the board after the move, Next
        step = LESSONS[game]["steps"][0]
        move = lesson(game=game, step=step["id"], answer=True)["moves"][0]
        play_move(page, Mouse(page), move)
        page.locator(f'{STEP}[data-phase="right"]').wait_for()
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            assert_clean(page, f"the {game} lesson answered, {scheme}")
        page.emulate_media(color_scheme="light")
    shoot(page, "lesson-answered")
    page.emulate_media(color_scheme="dark")
    shoot(page, "lesson-answered-dark")
    page.emulate_media(color_scheme="light")


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_lesson_in_the_learn_embed_on_another_site(browser: Browser, server: str, host: tuple[str, Path], game: str) -> None:
    """embed.html?mode=learn&game=<id> in a blog's frame: the same lesson, played
    to its end by mouse, every answer the engine's; nothing of the page's routes."""
    page, frame = embed_in_host(browser, host, f"{server}embed.html?mode=learn&game={game}", width=680, height=760)
    try:
        frame.locator(f'section.learn[data-game="{game}"] {STEP}[data-step]').wait_for()
        assert "a game invented by Leroy Quet" in frame.locator("section.learn .inventor").inner_text()
        play_steps(frame, game, Pointer(frame), full=f"{server}index.html#setup={game}")
        if game == "prime-target":
            page.screenshot(path=str(ARTIFACTS / "lesson-embed-prime-target.png"))
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        page.context.close()
