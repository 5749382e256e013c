"""Multiplications' marks (boards/multiplications.js, issue 49 item 6).

The line 1 -> 2 -> 3 ... joins only the numbers it links: read from the SVG,
each of its segments starts by one number and ends by the next, and no point
of it comes within 0.4 of a square of any other x's centre, numbered or not
(it hops round them). Before the change the segment from the 1 at a1 to the 2
at g7 ran through the centres of the five unnumbered x's between (0.0 of a
square from each).

The x marked last has a mark of its own, unlike the orange ring of the last
number and of the legend's key for it. Before the change it had none.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import quetgames
from playwright.sync_api import Browser, Page

from .harness import ARTIFACTS, READY, Watched, open_record, watched_page

DIAGONAL = ["a1", "b2", "c3", "d4", "e5", "f6", "g7"]  # (the 1 is at a1, in the leftmost column)


def position(*moves: str) -> quetgames.State:
    state = quetgames.new_game("multiplications")
    for move in moves:
        state = state.play(move)
    return state


@pytest.fixture(scope="module")
def phone(browser: Browser, server: str) -> Iterator[Watched]:
    watched = watched_page(browser, server, viewport={"width": 390, "height": 844}, timeout_ms=30_000, has_touch=True, is_mobile=True)
    watched.goto_ready(server)
    yield watched
    watched.context.close()


# Each segment of the line (a subpath, from one M to the next) drawn as a path
# of its own and sampled every 1/200 of its length: its ends, and the nearest
# any of its points comes to each x's centre (in squares).
SEGMENTS = """(xs) => {
  const svg = document.querySelector('#board svg.grid-board');
  const line = svg.querySelector('.lines .path');
  const unit = svg.querySelector('.cell-bg').getBBox().width;
  const centre = {};
  for (const sq of xs) {
    // (a square's <g class="cell"> is moved into place by its transform)
    const m = svg.querySelector(`g.cell[data-square="${sq}"]`).transform.baseVal.consolidate().matrix;
    centre[sq] = [m.e + unit / 2, m.f + unit / 2];
  }
  const parts = line.getAttribute('d').split('M').filter(Boolean).map((p) => 'M' + p);
  return parts.map((d) => {
    const p = document.createElementNS('http://www.w3.org/2000/svg', 'path');
    p.setAttribute('d', d);
    svg.append(p);
    const total = p.getTotalLength(), points = [];
    for (let i = 0; i <= 200; i++) { const q = p.getPointAtLength(total * i / 200); points.push([q.x, q.y]); }
    p.remove();
    const near = (pt) => Object.entries(centre).map(([sq, c]) => [sq, Math.hypot(pt[0] - c[0], pt[1] - c[1]) / unit]).sort((a, b) => a[1] - b[1])[0][0];
    const closest = {};
    for (const [sq, c] of Object.entries(centre)) closest[sq] = Math.min(...points.map((pt) => Math.hypot(pt[0] - c[0], pt[1] - c[1]) / unit));
    return {from: near(points[0]), to: near(points.at(-1)), closest};
  });
}"""


@pytest.mark.parametrize("numbers", [["g7", "c3"], ["g7", "c3", "e5", "b2", "f6"], ["d4", "b2", "g7"]])
def test_the_line_joins_only_the_numbers_it_links(phone: Watched, numbers: list[str]) -> None:
    state = position(*DIAGONAL, *numbers)
    open_record(phone, state.record)
    board = state.view()["board"]
    order = [sq for sq, _ in sorted(board["numbers"].items(), key=lambda kv: kv[1])]
    segments = phone.page.evaluate(SEGMENTS, board["xs"])
    phone.page.locator("#board").screenshot(path=str(ARTIFACTS / f"mu-path-{len(numbers)}.png"))
    assert [(s["from"], s["to"]) for s in segments] == list(zip(order, order[1:]))
    for segment in segments:
        for sq, distance in segment["closest"].items():
            if sq not in (segment["from"], segment["to"]):
                assert distance >= 0.4, (f"the segment {segment['from']} -> {segment['to']} comes within "
                                         f"{distance:.2f} of a square of the x at {sq}")
    assert phone.errors == []


def test_the_x_marked_last_is_marked_unlike_the_last_numbers_ring(phone: Watched) -> None:
    page: Page = phone.page
    state = position("c3", "a1", "e5")
    open_record(phone, state.record)
    page.locator("#board").screenshot(path=str(ARTIFACTS / "mu-last-x.png"))
    marks = page.evaluate("""() => {
      const svg = document.querySelector('#board svg.grid-board');
      const mark = svg.querySelector('.last-x-mark');
      const text = [...svg.querySelectorAll('text.last-x')].map((t) => t.textContent);
      const key = document.querySelector('#board .grid-legend .key.last-x');
      return {mark: mark && {tag: mark.tagName, cls: mark.getAttribute('class'), fill: getComputedStyle(mark).fill, stroke: getComputedStyle(mark).stroke},
              text, key: key && key.textContent, rings: svg.querySelectorAll('.last-mark').length,
              label: svg.querySelector('[data-try="e5"], [data-square="e5"]')?.getAttribute('aria-label') ?? null};
    }""")
    assert marks["mark"], "the x marked last (e5) has no mark"
    assert marks["mark"]["tag"] != "circle" and "last-mark" not in marks["mark"]["cls"], marks
    assert marks["text"] == ["×"] and marks["key"] == "×" and marks["rings"] == 0, marks
    # numbering: the last number is ringed (orange), the legend's key a ring too, and no x has the bar
    done = position(*DIAGONAL, "g7")
    open_record(phone, done.record)
    page.locator("#board").screenshot(path=str(ARTIFACTS / "mu-last-number.png"))
    numbered = page.evaluate("""() => {
      const svg = document.querySelector('#board svg.grid-board');
      const ring = svg.querySelector('.last-mark');
      const key = document.querySelector('#board .grid-legend .key.last');
      return {bars: svg.querySelectorAll('.last-x-mark').length, ring: ring && getComputedStyle(ring).stroke,
              keyRadius: getComputedStyle(key).borderTopLeftRadius, keyColour: getComputedStyle(key).borderTopColor};
    }""")
    assert numbered["bars"] == 0 and numbered["ring"] == numbered["keyColour"], numbered
    assert numbered["keyRadius"] == "50%", numbered
    assert phone.errors == []
