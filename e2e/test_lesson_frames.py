"""Lessons in a frame and the lesson's answer line (issue 46, item 5; lesson.js,
the lesson blocks of style.css and embed.css).

In a blog's 480 x 680 frame on another origin (embed.html?mode=learn), every
lesson is played to its end by keyboard (Tab, arrows, Enter) and by touch
(taps, in a touch context): before every press, and at the end, the board is
at least 60% of the frame's width and nothing reaches past its right edge;
axe finds nothing inside the frame; the board's top stays within 0.5 px over
the whole lesson, and the answer's room ends above it. Before the change the
board was shrunk under each answer to 33-50% of the frame's width (frame.js
fitted it to the height the answer took); on bd3ec5a its top moved 46-108 px
over a lesson.

On the site's lesson page at 1280 x 800 and at 390 x 844 by touch, for every
lesson's first step: after a refused move and after a right one the board's
top stays within 1 px, the page does not scroll by itself, and the answer's
words are inside the window. Before the change they were 868-1,009 px down an
800 px window, and up to 159 px below a phone's screen.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Frame, Locator, Page

from .axe import RUN_OPTIONS, describe, inject
from .harness import ARTIFACTS, LOAD_TIMEOUT_MS, READY, Watched, embed_in_host, watched_page
from .test_lessons import GAMES, LESSONS, STEP, Keyboard, Mouse, Touch, answered, lesson, play_move, play_steps, replies

FRAME = {"width": 480, "height": 680}
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}

# The board's share of the frame's width (its largest drawing), what reaches
# past the frame's right edge, where the step's buttons end, and (in the
# frame's page: its scroll counted) the tops of the board and of its first
# drawing, and the foot of the answer's room.
MEASURE = """() => {
  const de = document.documentElement;
  const svgs = [...document.querySelectorAll('#board svg')];
  const area = (el) => { const r = el.getBoundingClientRect(); return r.width * r.height; };
  const main = svgs.reduce((a, b) => (area(b) > area(a) ? b : a));
  const buttons = [...document.querySelectorAll('.lesson-buttons > :not([hidden])')].map((b) => b.getBoundingClientRect().bottom + scrollY);
  const top = (el) => el.getBoundingClientRect().top + scrollY;
  return {share: main.getBoundingClientRect().width / de.clientWidth, over: de.scrollWidth - de.clientWidth,
          board: top(document.getElementById('board')), drawing: top(document.querySelector('#board svg')),
          answered: document.querySelector('.lesson-anchor').getBoundingClientRect().bottom + scrollY,
          phase: document.querySelector('section.lesson-step')?.dataset.phase,
          tall: de.scrollHeight - innerHeight,
          buttons: Math.max(...buttons), height: innerHeight,
          step: document.querySelector('section.lesson-step')?.dataset.step ?? 'end'};
}"""


def lesson_frame(browser: Browser, host: tuple[str, Path], server: str, game: str, *, touch: bool) -> tuple[Page, Frame]:
    """A blog's page holding the lesson's frame at 480 x 680 (embed_in_host's,
    with touch if asked), Start pressed by a tap or by the keyboard."""
    page, frame = embed_in_host(browser, host, f"{server}embed.html?mode=learn&game={game}", width=FRAME["width"],
                                height=FRAME["height"], viewport={"width": 1000, "height": 900}, start=False,
                                has_touch=touch, title="A lesson by Leroy Quet")
    start = frame.locator("#embed-start")
    if touch:
        start.tap()
    else:
        start.focus()
        page.keyboard.press("Enter")
    frame.locator(READY).wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)
    frame.locator(f'section.learn[data-game="{game}"] {STEP}[data-step]').wait_for()
    return page, frame


class _FrameWithKeys:
    """A frame, with its page's keyboard: what Keyboard (test_lessons) needs."""

    def __init__(self, frame: Frame, page: Page) -> None:
        self._frame = frame
        self.keyboard = page.keyboard

    def __getattr__(self, name: str):
        return getattr(self._frame, name)


class Measured:
    """Acts as `act` does, and measures the frame before each press: so every
    answer's layout is measured (each is followed by a press, the last by the end)."""

    def __init__(self, act, frame: Frame) -> None:
        self.act, self.frame, self.seen = act, frame, []
        self.name = act.name

    def measure(self) -> None:
        self.seen.append(self.frame.evaluate(MEASURE))

    def press(self, target: Locator) -> None:
        if self.frame.locator("#board svg").count():
            self.measure()
        self.act.press(target)

    def type_into(self, field: Locator, text: str, submit: Locator) -> None:
        self.measure()
        self.act.type_into(field, text, submit)

    def unfold(self) -> None:
        self.act.unfold()


def axe_in(frame: Frame) -> list[dict]:
    inject(frame)
    return frame.evaluate("""async (options) => (await axe.run(document, options)).violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' >> ')) }))""", RUN_OPTIONS)


@pytest.mark.parametrize("how", ["keyboard", "touch"])
@pytest.mark.parametrize("game", GAMES)
def test_a_lesson_in_a_480_by_680_frame(browser: Browser, server: str, host: tuple[str, Path], game: str, how: str) -> None:
    page, frame = lesson_frame(browser, host, server, game, touch=how == "touch")
    try:
        # (the board's own style sheet, linked when its module loads, and the fonts in)
        frame.wait_for_function("() => [...document.querySelectorAll('link[rel=stylesheet]')].every((l) => l.sheet) && document.fonts.status === 'loaded'")
        frame.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        first = frame.evaluate(MEASURE)
        page.screenshot(path=str(ARTIFACTS / f"lesson-frame-{game}-{how}-step1.png"))
        assert first["buttons"] <= first["height"], ("the first step's buttons are below the frame", first)
        found = axe_in(frame)
        assert not found, f"axe inside the {game} lesson's frame:\n{describe(found)}"
        act = Measured(Keyboard(_FrameWithKeys(frame, page)) if how == "keyboard" else Touch(frame), frame)
        play_steps(frame, game, act, full=f"{server}index.html#setup={game}")
        act.measure()
        page.screenshot(path=str(ARTIFACTS / f"lesson-frame-{game}-{how}.png"))
        narrow = [m for m in act.seen if m["share"] < 0.6]
        assert not narrow, f"the board under 60% of the frame's width: {narrow[:3]}"
        over = [m for m in act.seen if m["over"] > 0]
        assert not over, f"the frame's content runs past its right edge: {over[:3]}"
        found = axe_in(frame)  # (the lesson's end, with its answer shown)
        assert not found, f"axe inside the {game} lesson's frame, played:\n{describe(found)}"
        assert page.errors == []  # type: ignore[attr-defined]
        # nothing runs past the frame's foot either, at any step measured (on
        # e7c20a7 Convoluted Coprimality's ran 29 px past it after the grid was
        # wiped, Nonconformity's 9 to 58 px in its closing game)
        tall = [m for m in act.seen if m["tall"] > 1]
        assert not tall, f"the frame's content runs past its foot: {tall[:3]}"
        # the board stays put over the whole lesson (issue 56, point 6): its
        # top, and its first drawing's but in Nonconformity (whose number line
        # is under the table of rounds, which grows by a row a round in its
        # game, as on the site's page); no answer reaches over it. On bd3ec5a
        # the board's top moved 46-64 px over a lesson, Nonconformity's 108 px
        # (its line 179 px): the task's and the answer's heights, and the
        # step's kept height shared out among the rows.
        where = [(m["step"], m["phase"], round(m["board"], 1), round(m["drawing"], 1)) for m in act.seen]
        for what in ("board", "drawing") if game != "nonconformity" else ("board",):
            tops = [m[what] for m in act.seen]
            assert max(tops) - min(tops) <= 0.5, f"the {what} moves {max(tops) - min(tops):.1f} px in the frame: {where}"
        covering = [(m["step"], m["phase"], m["answered"] - m["board"]) for m in act.seen if m["answered"] > m["board"] + 0.5]
        assert not covering, f"the answer's room reaches over the board: {covering}"
    finally:
        page.context.close()


# -- the answer line on the site's lesson page ---------------------------------------------------

WHERE = """() => {
  const board = document.querySelector('#board').getBoundingClientRect();
  const said = document.querySelector('#lesson-said .lesson-said').getBoundingClientRect();
  return {boardTop: board.top, scrollY: window.scrollY, saidTop: said.top, saidBottom: said.bottom, height: innerHeight, saidHeight: said.height};
}"""


@pytest.fixture(scope="module", params=["desktop", "phone"])
def site(request, browser: Browser, server: str) -> Iterator[Watched]:
    phone = request.param == "phone"
    watched = watched_page(browser, server, viewport=PHONE if phone else DESKTOP, timeout_ms=30_000,
                           has_touch=phone, is_mobile=phone)
    watched.goto_ready(server)
    watched.name = request.param  # type: ignore[attr-defined]
    yield watched
    watched.context.close()


@pytest.mark.parametrize("game", GAMES)
def test_the_answer_is_on_screen_and_the_board_stays_put(site: Watched, game: str) -> None:
    page = site.page
    act = Touch(page) if site.name == "phone" else Mouse(page)  # type: ignore[attr-defined]
    page.evaluate("() => { try { localStorage.removeItem('quetgames.lessons'); } catch {} }")
    page.evaluate(f"() => {{ location.hash = {json.dumps('learn=' + game)}; }}")
    step = LESSONS[game]["steps"][0]
    page.locator(f'section.learn[data-game="{game}"] {STEP}[data-step="{step["id"]}"][data-phase="ask"]').wait_for()
    page.evaluate("() => window.scrollTo(0, 0)")
    before = page.evaluate(WHERE)
    board = page.locator("#board")
    # a refused move: a number typed (Nonconformity) or a square the engine refuses
    if game == "nonconformity":
        refused = next(str(n) for n in range(2, 101) if str(n) not in step["view"]["legal_moves"])
        n = replies(page)
        act.type_into(board.locator("#nc-pick"), refused, board.get_by_role("button", name="Choose it"))
    else:
        n = replies(page)
        act.press(board.locator("[data-try]").first)
    answered(page, n)
    wrong = page.evaluate(WHERE)
    page.screenshot(path=str(ARTIFACTS / f"lesson-answer-{site.name}-{game}-refused.png"))  # type: ignore[attr-defined]
    n = replies(page)
    play_move(page, act, lesson(game=game, step=step["id"], answer=True)["moves"][0])
    answered(page, n)
    right = page.evaluate(WHERE)
    page.screenshot(path=str(ARTIFACTS / f"lesson-answer-{site.name}-{game}-right.png"))  # type: ignore[attr-defined]
    for what, after in (("refused", wrong), ("right", right)):
        assert abs(after["boardTop"] - before["boardTop"]) <= 1, (what, before, after)
        assert after["scrollY"] == before["scrollY"], (what, before, after)
        assert after["saidHeight"] > 0 and after["saidTop"] >= 0 and after["saidBottom"] <= after["height"], (what, after)
    assert site.errors == []
