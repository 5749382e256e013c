"""The poster stays until the board is ready (issue 49): after Start, the
reader keeps seeing the position (the poster's board, with the progress
under it, where Start was) until the live board takes its place in the same
box. Sampled in the frame every 100 ms from the click on Start until the
engine is ready: the position is drawn in every sample. Figures, not timings:
what each sample found, never how long anything took.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser

from .harness import ARTIFACTS, LOAD_TIMEOUT_MS, READY, embed_in_host, finished, watched_page

# One sample: the largest drawing in the board's box, whether it is the
# poster's or the live game's, and what the frame says of the engine.
SAMPLER = """() => {
  window.__samples = [];
  const sample = () => {
    const svgs = [...document.querySelectorAll('#board svg')];
    const area = (e) => { const r = e.getBoundingClientRect(); return r.width * r.height; };
    const main = svgs.length ? svgs.reduce((a, b) => (area(b) > area(a) ? b : a)) : null;
    const r = main?.getBoundingClientRect();
    window.__samples.push({
      engine: document.documentElement.dataset.engine,
      board: r ? [Math.round(r.top), Math.round(r.width), Math.round(r.height)] : null,
      shown: r ? r.width >= 100 && r.height >= 100 && r.top < innerHeight && r.bottom > 0 : false,
      from: main ? (main.closest('.poster') ? 'poster' : 'game') : 'none',
      progress: document.getElementById('loading-bar') !== null,
    });
  };
  sample();
  window.__sample = sample;
  window.__sampling = setInterval(sample, 100);
}"""


@pytest.mark.parametrize(("game", "options"), [("prime-target", {}), ("enumeration", {"size": 6})])
def test_the_position_is_drawn_in_every_sample_from_start_to_the_board(browser: Browser, server: str, host: tuple[str, Path],
                                                                       game: str, options: dict) -> None:
    state = finished(game, 5, **options)
    # the snippet's address with its poster, made on the site from the engine's view as the Embed dialog makes it
    site = watched_page(browser, server, timeout_ms=30_000)
    try:
        site.page.goto(f"{server}index.html#{state.record}")
        site.wait_ready()
        src = site.page.evaluate("""async ([record, plies]) => {
          const { engine } = await import(new URL('bridge/engine.js', location.href).href);
          const { makePoster } = await import(new URL('share/poster.js', location.href).href);
          const { embedURL } = await import(new URL('share/embed-snippet.js', location.href).href);
          const at = await engine.request('at', { record, ply: plies });
          return embedURL(record, { mode: 'replay' }, location.href, await makePoster(at.view, { key: record, ply: plies, plies }));
        }""", [state.record, len(state.history)])
    finally:
        site.context.close()
    assert "!poster." in src, src
    page, frame = embed_in_host(browser, host, src, width=480, height=680, start=False)
    try:
        frame.locator("section.poster[data-poster=position] #board svg").first.wait_for()
        frame.evaluate(SAMPLER)
        frame.locator("#embed-start").click()
        ARTIFACTS.mkdir(exist_ok=True)
        if frame.evaluate("() => document.documentElement.dataset.engine") == "loading":
            page.screenshot(path=str(ARTIFACTS / f"poster-loading-{game}.png"), clip={"x": 0, "y": 0, "width": 500, "height": 800})
        frame.locator(READY).wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)
        frame.locator(".embed-game #board svg").first.wait_for()
        frame.evaluate("() => { clearInterval(window.__sampling); window.__sample(); }")  # (and one last, of the live board)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"poster-until-board-{game}.png"), clip={"x": 0, "y": 0, "width": 500, "height": 800})
        samples = frame.evaluate("() => window.__samples")
        blank = [s for s in samples if not s["shown"]]
        loading = [s for s in samples if s["engine"] == "loading"]
        assert loading, "no sample was taken while the engine loaded"
        assert blank == [], f"{len(blank)} of {len(samples)} samples without the position: {blank[:3]}"
        # while it loads, the poster's board is there with the progress under it
        assert all(s["from"] == "poster" and s["progress"] for s in loading), loading[:3]
        assert samples[-1]["from"] == "game"
        # the live board takes the poster's place: its top within a few pixels
        tops = {s["from"]: s["board"][0] for s in samples if s["board"]}
        assert abs(tops["poster"] - tops["game"]) <= 40, tops
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        page.context.close()
