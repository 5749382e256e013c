"""No sideways overflow in a blog's frame of any width (issue 49): a frame on
a page of another origin, resized in place from 300 to 1,200 px wide in steps
of 20, for every game, in play and in replay, finished and in progress, with
a named seat ("Blogger") and a computer seat (medium). Measured as figures:
nothing of the frame's content reaches past its right edge (a board's own
scrolling box counts as one thing), and where the game is ("Move 5 of 8")
takes at most two lines.

One frame per mode, started once: each position is opened in it by a change
of its fragment (the frame follows it, docs/EMBED.md), and each width is
waited for with the frame's <html data-fit> (frame.js), as test_frames.py does.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import quetgames
from playwright.sync_api import Browser, Frame

from .harness import ARTIFACTS, READY, embed_in_host

WIDTHS = list(range(300, 1201, 20))
HEIGHT = 600
SEATS = {"names": ["Blogger"], "kinds": ["human", "greedy"]}  # (greedy: "Computer, medium" in the setup)

# (game, options, moves played or None for a finished game)
POSITIONS = [
    ("convoluted-coprimality", {}, 8),
    ("convoluted-coprimality", {}, None),
    ("enumeration", {}, 7),
    ("enumeration", {"size": 6}, None),
    ("multiplications", {}, 5),
    ("multiplications", {}, None),
    ("prime-target", {}, 8),
    ("prime-target", {}, None),
    ("nonconformity", {"seed": 1}, 4),  # (a seed: the same starts on every run)
    ("nonconformity", {"seed": 1}, None),
]

# What reaches past the frame's right edge (each element outside a box that
# scrolls sideways of its own, and each such box itself), and how many lines
# "where the game is" takes.
OVERFLOW = """() => {
  const edge = document.documentElement.clientWidth + 0.5;
  const scrolls = (el) => { const s = getComputedStyle(el); return el !== document.documentElement && el !== document.body
    && ['auto', 'scroll', 'hidden', 'clip'].includes(s.overflowX); };
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    // (what is hidden, or folded in a closed <details>, is not drawn)
    if (el.closest('[hidden]') || el.closest('details:not([open]) > :not(summary)') || getComputedStyle(el).display === 'none') continue;
    let up = el.parentElement, inside = false;
    while (up && up !== document.body) { if (scrolls(up)) { inside = true; break; } up = up.parentElement; }
    if (inside) continue;
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > edge) out.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}.${[...el.classList].join('.')} "${(el.textContent || '').trim().slice(0, 12)}" +${Math.round(r.right - edge + 0.5)}`);
  }
  const ply = document.getElementById('embed-ply');
  const lines = ply ? Math.round(ply.getBoundingClientRect().height / parseFloat(getComputedStyle(ply).lineHeight)) : 0;
  return {out: out.slice(0, 4), lines, scroll: document.documentElement.scrollWidth - document.documentElement.clientWidth};
}"""


def position(game: str, moves: int | None, seed: int = 2, **options: object) -> quetgames.State:
    rng = random.Random(seed)
    state = quetgames.new_game(game, **options)
    while not state.is_over and (moves is None or len(state.history) < moves):
        for seat in state.to_move:
            state = state.play(rng.choice(state.legal_moves(seat)), seat if len(state.to_move) > 1 else None)
    return state.with_seats(**SEATS)


def show(frame: Frame, state: quetgames.State) -> None:
    """Open `state` in the started frame by a change of its fragment, and wait
    until it is drawn: its game's name in the title, and at least its moves
    (in play mode the computer may answer at once). Each game's position in
    progress comes before its finished one, so the one before never passes."""
    frame.evaluate("r => { location.hash = r; }", state.record)
    frame.wait_for_function("""([name, plies]) => document.title.startsWith(name + ' ·')
      && Number(document.querySelector('.embed-game')?.dataset.ply ?? -1) >= plies""",
                            arg=[state.view()["name"], len(state.history)])
    frame.locator(READY).wait_for(state="attached", timeout=60_000)


@pytest.mark.parametrize("mode", ["replay", "play"])
def test_no_frame_width_overflows_sideways(browser: Browser, server: str, host: tuple[str, Path], mode: str) -> None:
    states = [(game, moves, position(game, moves, **options)) for game, options, moves in POSITIONS]
    first = states[0][2].record
    page, frame = embed_in_host(browser, host, f"{server}embed.html?mode={mode}#{first}", width=WIDTHS[0], height=HEIGHT,
                                viewport={"width": 1280, "height": 800})
    misses = []
    worst: dict[str, int] = {}
    try:
        for game, moves, state in states:
            show(frame, state)
            for width in WIDTHS:
                page.evaluate("w => { document.querySelector('iframe').width = w; }", width)
                frame.wait_for_function("(size) => document.documentElement.dataset.fit === size", arg=f"{width}x{HEIGHT}")
                look = frame.evaluate(OVERFLOW)
                if look["out"] or look["lines"] > 2 or look["scroll"] > 0:
                    misses.append((game, "end" if moves is None else f"move {moves}", width, look))
                    worst.setdefault(game, width)
                    if len(misses) < 6:
                        ARTIFACTS.mkdir(exist_ok=True)
                        page.screenshot(path=str(ARTIFACTS / f"frame-width-{mode}-{game}-{width}.png"),
                                        clip={"x": 0, "y": 0, "width": min(1280, width + 20), "height": HEIGHT + 80})
            if game in ("prime-target", "convoluted-coprimality") and moves is not None:
                for width in (760, 860):
                    page.evaluate("w => { document.querySelector('iframe').width = w; }", width)
                    frame.wait_for_function("(size) => document.documentElement.dataset.fit === size", arg=f"{width}x{HEIGHT}")
                    ARTIFACTS.mkdir(exist_ok=True)
                    page.screenshot(path=str(ARTIFACTS / f"frame-width-{mode}-{game}-{width}-seen.png"),
                                    clip={"x": 0, "y": 0, "width": width + 20, "height": HEIGHT + 80})
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        page.context.close()
    widths = sorted({m[2] for m in misses})
    by_case: dict[tuple, list] = {}
    for game, where, width, look in misses:
        by_case.setdefault((game, where), []).append((width, look))
    summary = {case: f"{len(found)} widths {found[0][0]}-{found[-1][0]}, e.g. {found[len(found) // 2]}" for case, found in by_case.items()}
    assert misses == [], f"{len(misses)} misses at widths {widths}: {summary}"


# -- Nonconformity's pick screen in a frame (issue 46) --------------------------------------

FRAME_SIZES = [(480, 600), (680, 600), (358, 700), (480, 680)]  # (the last: the Embed dialog's default)

FIT = """() => {
  const steps = document.querySelector('.embed-steps')?.getBoundingClientRect();
  return {content: document.documentElement.scrollHeight, frame: innerHeight,
          steps: steps ? Math.round(steps.bottom) : null, wide: document.documentElement.scrollWidth - document.documentElement.clientWidth};
}"""


# The pick screen after "I am Blogger: show my choices" (issue 46's case), in
# positions fixed by their starts (Nonconformity's starts are random otherwise,
# and the screen's height depends on them). The board's own height is
# web/boards/nonconformity.js's. Figures from before:
# - starts 9 and 19: the picks' range chips (<100 … 500s) wrap onto a second
#   row: 634 px of content in a 480 x 600 frame before a short frame's compact
#   lines (embed.css), 604 after, 600 since the number line's rows lost their
#   name labels to the seats' badges (nonconformity.js);
# - against the computer: +70 px in 480 x 600 and +34 in 358 x 700 before the
#   compact lines.


@pytest.mark.parametrize(("kinds", "starts"), [
    pytest.param(["human", "human"], [27, 12], id="two-people"),
    pytest.param(["human", "human"], [9, 19], id="two-people-chips-wrap"),
    pytest.param(["human", "greedy"], [27, 12], id="against-the-computer"),
])
def test_nonconformity_pick_screen_fits_a_frame_after_show_my_choices(browser: Browser, server: str, host: tuple[str, Path],
                                                                      kinds: list[str], starts: list[int]) -> None:
    state = position("nonconformity", 4, starts=starts).with_seats(names=["Blogger"], kinds=kinds)
    page, frame = embed_in_host(browser, host, f"{server}embed.html#{state.record}", width=480, height=680)
    misses = []
    try:
        show = frame.locator("button.show-board")
        if kinds == ["human", "human"]:
            show.click()  # "I am Blogger: show my choices"
        frame.locator("#board svg, #board input").first.wait_for()
        for width, height in FRAME_SIZES:
            page.evaluate("([w, h]) => { const f = document.querySelector('iframe'); f.width = w; f.height = h; }", [width, height])
            frame.wait_for_function("(size) => document.documentElement.dataset.fit === size", arg=f"{width}x{height}")
            look = frame.evaluate(FIT)
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"frame-nonconformity-picks-{kinds[1]}-{starts[0]}-{width}x{height}.png"),
                            clip={"x": 0, "y": 0, "width": width + 20, "height": height + 80})
            if look["content"] > look["frame"] + 1 or look["steps"] is None or look["steps"] > look["frame"] or look["wide"] > 0:
                misses.append(((width, height), look))
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        page.context.close()
    assert misses == [], misses
