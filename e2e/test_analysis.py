"""The analysis of a game in the browser (web/features/analysis.js over the bridge's
`analyse`): Analyse on a finished game, the progress bar and Cancel, the chart
(one point per move, a point shows the game after it), the moves list's
marks, the best move at the position shown, results kept on the device, and
the embed's replay mode.

The page runs with ?analysis-iterations=N, so the browser's analysis is the
engine's `analyse(state, iterations=N)` exactly (the same seed, the same
iterations: the same report on any machine), and the marks are checked
against the Python engine's."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator

import pytest
import quetgames
from playwright.sync_api import Browser, Page

from .axe import assert_clean, stray_words
from .harness import ARTIFACTS, LOAD_TIMEOUT_MS, Watched, finished, open_record, ready_page, shoot, watched_page

ITERATIONS = 40
MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}

# Counts the page's bridge "analyse" calls: every request to the worker goes through postMessage.
COUNT_CALLS = """
window.__analyseCalls = 0;
const post = Worker.prototype.postMessage;
Worker.prototype.postMessage = function (message, ...rest) {
  if (message && message.call === "analyse") window.__analyseCalls += 1;
  return post.call(this, message, ...rest);
};
"""


# Counts the page's workers (the pool's extra ones are named "analysis",
# web/bridge/pool.js): started, live (not terminated), and the analyse answers and
# start-up timings each kind sends back.
COUNT_WORKERS = """
window.__workers = { started: 0, live: 0, extraAnswers: 0, homeAnswers: 0, extraTimings: [] };
const RealWorker = window.Worker;
window.Worker = class extends RealWorker {
  constructor(url, options) {
    super(url, options);
    const extra = options?.name === "analysis";
    window.__workers.started += 1;
    window.__workers.live += 1;
    this.addEventListener("message", (event) => {
      const data = event.data;
      if (data?.ok && Array.isArray(data.result?.moves) && Array.isArray(data.result?.span)) {
        window.__workers[extra ? "extraAnswers" : "homeAnswers"] += 1;
      }
      if (extra && data?.ready === true) window.__workers.extraTimings.push(data.timings);
    });
  }
  terminate() {
    if (!this.__ended) { this.__ended = true; window.__workers.live -= 1; }
    return super.terminate();
  }
};
"""

# the pool's extra workers for this browser (web/bridge/pool.js extraWorkers)
EXTRA_WORKERS = "Math.max(1, Math.min(8, (navigator.hardwareConcurrency || 2) - 1))"


SHORT = finished("enumeration", 3, size=4)  # 18 moves over two grids
LONG = finished("enumeration", 1, size=7)


FINISHED = "() => document.querySelector('.analysis-chart') && !document.querySelector('.analysis-progress')"


def analysed(page: Page) -> None:
    """The open game's finished analysis on screen (kept from an earlier test, or run now)."""
    page.locator(".analysis-chart, button.analysis-start").first.wait_for()
    if page.locator("button.analysis-start").count():
        page.locator("button.analysis-start").click()
    page.wait_for_function(FINISHED, timeout=60_000)


def calls(page: Page) -> int:
    return int(page.evaluate("window.__analyseCalls"))


@pytest.fixture(scope="module")
def w(browser: Browser, server: str) -> Iterator[Watched]:
    yield from ready_page(browser, server, f"?analysis-iterations={ITERATIONS}", COUNT_CALLS)


def test_analyse_draws_a_chart_marks_and_accuracy_like_the_engine(w: Watched, page: Page) -> None:
    expected = quetgames.analyse(SHORT, iterations=ITERATIONS)
    open_record(w, SHORT.record)
    panel = page.locator("section.analysis")
    assert panel.locator(".analysis-chart").count() == 0
    before = calls(page)
    panel.locator("button", has_text="Analyse").click()
    page.wait_for_function(FINISHED, timeout=60_000)
    # a first look a few moves a request, then every move at the full setting: more than one request
    made = calls(page) - before
    assert len(SHORT.history) < made < 3 * len(SHORT.history)
    # the finished chart is final throughout: no point is left from the first look
    assert page.locator(".analysis-chart .point.provisional").count() == 0
    points = page.locator(".analysis-chart .point")
    assert points.count() == len(SHORT.history) == len(expected.moves)
    assert [points.nth(i).get_attribute("data-ply") for i in range(points.count())] == [str(i + 1) for i in range(points.count())]
    # exact values are drawn differently from estimates (the ends of the grids are proved)
    exact = [m.exact for m in expected.moves]
    assert page.locator(".analysis-chart .point.exact").count() == sum(exact)
    assert page.locator(".analysis-chart .point.estimate").count() == len(exact) - sum(exact)
    for i, m in enumerate(expected.moves):
        assert f"Move {i + 1}," in (points.nth(i).get_attribute("aria-label") or "")
        assert f"grade-{m.grade}" in (points.nth(i).get_attribute("class") or "")
    # the moves list's marks: the engine's classes
    marks = page.locator(".move-list button.ply").evaluate_all(
        "bs => bs.map(b => b.querySelector('.move-mark')?.dataset.grade ?? null)")
    assert marks == [m.grade if m.grade in MARKS else None for m in expected.moves]
    assert any(marks)
    first = page.locator(".move-list .move-mark").first
    assert first.inner_text().split()[0] in MARKS.values()
    # per-seat accuracy, as the engine computes it
    figures = page.locator(".analysis-accuracy .accuracy-figure").all_inner_texts()
    assert figures == [f"accuracy {acc:.0f}%" for acc in expected.accuracy if acc is not None]
    shoot(page, "analysis-finished")


def test_a_point_of_the_chart_shows_the_game_after_that_move(w: Watched, page: Page) -> None:
    expected = quetgames.analyse(SHORT, iterations=ITERATIONS)
    open_record(w, SHORT.record)
    analysed(page)
    # a move with a choice: the next move's best is shown on the board and in words
    ply = next(i for i, m in enumerate(expected.moves) if i > 0 and not m.forced and m.best_move != m.move)
    page.locator(f'.analysis-chart .point[data-ply="{ply}"]').click()
    page.locator(".replay-banner", has_text=f"after move {ply} of").wait_for()
    page.locator(f'.analysis-chart .point[data-ply="{ply}"][aria-current]').wait_for()
    # the panel judges move `ply`, the move that led here (not the one after it) ...
    judged = expected.moves[ply - 1]
    played = page.locator(".analysis-played")
    assert played.get_attribute("data-ply") == str(ply)
    assert played.inner_text().startswith(f"Move {ply}. ")
    assert f"played {judged.move}" in played.inner_text()
    if not judged.forced:
        assert f"Best there: {judged.best_move}" in page.locator(".analysis-best").inner_text()
    # ... and names the best move from the position shown, which the board marks
    best = expected.moves[ply]
    words = page.locator(".analysis-next").inner_text()
    assert f"Best from here: {best.best_move}, which keeps {best.best_value:.2f}" in words
    # the best move's targets marked on the board, a picture until "Play a move here" (e2e/test_side_lines.py)
    assert page.locator("#board .best-here").count() >= 1
    assert page.locator("#board [data-move]").count() == 0  # still a picture: nothing plays
    shoot(page, "analysis-replay")
    # the README's picture (docs/analysis.png is a copy of it)
    page.set_viewport_size({"width": 960, "height": 800})
    page.mouse.move(0, 0)
    page.locator(".game-body").screenshot(path=str(ARTIFACTS / "analysis-readme.png"), scale="css")
    page.set_viewport_size({"width": 1280, "height": 800})
    # a move of the moves list names the same move: its own verdict, not the next one's
    listed = next(i for i, m in enumerate(expected.moves, start=1) if i != ply and i < len(expected.moves) and not m.forced)
    page.locator(f'.move-list [data-key="ply-{listed}"]').click()
    page.locator(f'.analysis-played[data-ply="{listed}"]').wait_for()
    assert f"played {expected.moves[listed - 1].move}" in page.locator(".analysis-played").inner_text()
    page.locator(f'.analysis-chart .point[data-ply="{listed}"][aria-current]').wait_for()
    # the keyboard: Enter on a point
    other = 2
    page.locator(f'.analysis-chart .point[data-ply="{other}"]').focus()
    page.keyboard.press("Enter")
    page.locator(".replay-banner", has_text=f"after move {other} of").wait_for()
    # the last point is the game as it stands
    page.locator(f'.analysis-chart .point[data-ply="{len(SHORT.history)}"]').click()
    page.locator(".replay-banner").wait_for(state="detached")


@pytest.mark.parametrize(("game", "options"), [
    ("convoluted-coprimality", {"size": 4}),
    ("multiplications", {"k": 3}),
    ("prime-target", {"rays": 4}),
    ("nonconformity", {"length": 4, "max_pick": 100}),
])
def test_every_game_is_analysed_and_stepped_through(w: Watched, page: Page, game: str, options: dict[str, object]) -> None:
    state = finished(game, 2, **options)
    expected = quetgames.analyse(state, iterations=ITERATIONS)
    open_record(w, state.record)
    analysed(page)
    assert page.locator(".analysis-chart .point").count() == len(state.history)
    assert page.locator(".analysis-chart .point.exact").count() == sum(m.exact for m in expected.moves)
    ply = len(state.history) // 2
    page.locator(f'.analysis-chart .point[data-ply="{ply}"]').click()
    page.locator(".replay-banner", has_text=f"after move {ply} of").wait_for()
    judged = expected.moves[ply - 1]
    assert page.locator(".analysis-played").inner_text().startswith(f"Move {ply}. ")
    assert f"played {judged.move}" in page.locator(".analysis-played").inner_text()
    if not judged.forced:
        assert f"Best there: {judged.best_move}" in page.locator(".analysis-best").inner_text()
    # a replayed board is a picture, with the best move marked where the board can show it
    # (it plays a side line once asked, "Play a move here": e2e/test_side_lines.py)
    assert page.locator("#board.replaying:not(.side-play)").count() == 1
    assert page.locator("#board [data-move], #board input, #board .pt-play-ring").count() == 0
    assert page.locator('.replay-banner [data-key="side-play"]').count() == 1
    shoot(page, f"analysis-{game}")
    page.locator('.analysis-chart .point[data-ply="1"]').click()
    page.locator(".replay-banner", has_text="after move 1 of").wait_for()
    if not expected.moves[1].forced and game != "nonconformity":
        page.locator(f".analysis-next:has-text('Best from here: {expected.moves[1].best_move}')").wait_for()
    page.screenshot(path=str(ARTIFACTS / f"analysis-{game}-move-1.png"))


def test_cancel_stops_every_worker_and_keeps_nothing(browser: Browser, server: str) -> None:
    # a slower setting, so there is time to press Cancel mid-way
    w = watched_page(browser, server, timeout_ms=30_000)
    try:
        w.context.add_init_script(COUNT_CALLS)
        w.context.add_init_script(COUNT_WORKERS)
        w.goto_ready(f"{server}?analysis-budget=0.5")
        page = w.page
        open_record(w, LONG.record)
        assert page.evaluate("window.__workers.live") == 1  # the page's own
        page.locator("button.analysis-start").click()
        text = page.locator(".analysis-progress-text")
        # the first look's chart, then the full analysis move by move: some points final, some not yet
        page.wait_for_function("() => /Deepening: ([2-9]|\\d\\d) of/.test(document.querySelector('.analysis-progress-text')?.textContent ?? '')",
                               timeout=60_000)
        assert f"of {len(LONG.history)} moves final" in text.inner_text()
        assert page.locator("progress.analysis-progress").count() == 1
        assert page.locator(".analysis-chart .point.final").count() >= 2
        assert page.locator(".analysis-chart .point.provisional").count() >= 1
        provisional = page.locator(".analysis-chart .point.provisional").first.get_attribute("aria-label") or ""
        assert "First look, still being refined." in provisional
        assert "Final." in (page.locator(".analysis-chart .point.final").first.get_attribute("aria-label") or "")
        # every core: the page's worker and the pool's extra ones, no more
        extra = page.evaluate(EXTRA_WORKERS)
        assert page.evaluate("window.__workers.live") == 1 + extra
        shoot(page, "analysis-progress")
        assert_clean(page, "an analysis under way: progress, first-look and final points")
        assert stray_words(page) == []
        # the page still answers while it runs: step through the game
        page.locator('.move-list button[data-key="ply-2"]').click()
        page.locator(".replay-banner", has_text="after move 2 of").wait_for()
        page.locator("button.analysis-cancel").click()
        page.locator("button.analysis-start").wait_for()
        # at once: every extra worker terminated, the page's own left
        assert page.evaluate("window.__workers.live") == 1
        assert page.locator(".analysis-progress").count() == 0
        after = calls(page)
        extra_answers = page.evaluate("window.__workers.extraAnswers")
        # a later engine call (stepping to move 3) answers only after anything
        # the page's engine had still under way: no analyse request may come before it
        page.locator('.move-list button[data-key="ply-3"]').click()
        page.locator(".replay-banner", has_text="after move 3 of").wait_for()
        assert calls(page) <= after
        assert page.evaluate("window.__workers.extraAnswers") == extra_answers  # a terminated worker never answers
        # and in the browser's own view too
        # (the browser's word that a worker is gone comes a little later: wait frames for it, up to 5 s)
        deadline = time.monotonic() + 5
        while len(page.workers) != 1 and time.monotonic() < deadline:
            page.evaluate("() => new Promise(requestAnimationFrame)")  # a frame, for the browser's word to arrive
        assert len(page.workers) == 1
        assert page.locator(".analysis-chart").count() == 0
        assert page.locator(".move-list .move-mark").count() == 0
        assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('quetgames.analysis.v1:')).length") == 0
        assert w.errors == []
    finally:
        w.context.close()


def test_reopening_shows_the_kept_analysis_without_asking_the_engine(w: Watched, page: Page, browser: Browser, server: str) -> None:
    open_record(w, SHORT.record)
    analysed(page)
    # kept under this setting and this engine build (build.json's wheel_sha256)
    engine = page.evaluate("async () => (await (await fetch('build.json')).json()).wheel_sha256")[:16]
    prefix = f"quetgames.analysis.v1:i{ITERATIONS}@{engine}:"
    assert page.evaluate("k => localStorage.getItem(k) !== null", prefix + SHORT.record)
    # a damaged entry for another game is ignored, not shown and not fatal
    other = finished("enumeration", 4, size=4)
    page.evaluate("([k]) => localStorage.setItem(k, '{\"record\": 1, \"moves\": [')", [prefix + other.record])
    fresh = w.context.new_page()  # the same device (storage), a new visit (a new engine)
    errors: list[str] = []
    fresh.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        fresh.goto(f"{server}?analysis-iterations={ITERATIONS}#{SHORT.record}")
        fresh.locator(".analysis-chart").wait_for(timeout=LOAD_TIMEOUT_MS)
        assert fresh.locator(".analysis-chart .point").count() == len(SHORT.history)
        assert fresh.locator(".move-list .move-mark").count() > 0
        assert calls(fresh) == 0
        fresh.evaluate("r => { location.hash = r; }", other.record)
        fresh.locator("button.analysis-start").wait_for()
        assert fresh.locator(".analysis-chart").count() == 0
        assert calls(fresh) == 0
        assert errors == []
    finally:
        fresh.close()
    # what another engine build found is not shown as this one's verdict
    page.evaluate("""([from, to]) => { localStorage.setItem(to, localStorage.getItem(from)); localStorage.removeItem(from); }""",
                  [prefix + SHORT.record, f"quetgames.analysis.v1:i{ITERATIONS}@{'0' * 16}:{SHORT.record}"])
    later = w.context.new_page()
    try:
        later.goto(f"{server}?analysis-iterations={ITERATIONS}#{SHORT.record}")
        later.locator("button.analysis-start").wait_for(timeout=LOAD_TIMEOUT_MS)
        assert later.locator(".analysis-chart").count() == 0
    finally:
        later.close()


def test_the_embed_replay_shows_the_chart(w: Watched, page: Page, server: str) -> None:
    embed = w.context.new_page()
    errors: list[str] = []
    embed.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        embed.set_viewport_size({"width": 420, "height": 900})
        embed.goto(f"{server}embed.html?mode=replay&ply=3&start=visible&analysis-iterations={ITERATIONS}#{LONG.record}")
        # (in a frame the analysis is a panel under the board, opened by the reader)
        embed.locator(".embed-analysis summary").click(timeout=LOAD_TIMEOUT_MS)
        embed.locator("button.analysis-start").wait_for(timeout=LOAD_TIMEOUT_MS)
        embed.locator("button.analysis-start").click()
        embed.wait_for_function(FINISHED, timeout=90_000)
        assert embed.locator(".analysis-chart .point").count() == len(LONG.history)
        embed.locator('.analysis-chart .point[data-ply="5"]').click()
        embed.wait_for_function("() => document.getElementById('embed-ply')?.dataset.ply === '5'")
        assert embed.locator(".analysis-best, .analysis-played").count() >= 1
        ARTIFACTS.mkdir(exist_ok=True)
        embed.screenshot(path=str(ARTIFACTS / "analysis-embed.png"), full_page=True)
        assert errors == []
    finally:
        embed.close()


# -- the budget: a 60-move game at the default budget ---------------------------------

def sixty_moves() -> quetgames.State:
    state = quetgames.new_game("enumeration", size=7)
    while len(state.history) < 60:
        state = state.play(quetgames.computer_move(state, level="greedy", seed=len(state.history)))
    return state


def sixty_moves_replayed(w: Watched, server: str, init_script: str) -> Page:
    """The 60-move game open on a fresh page with `init_script`, stepped back to
    move 1 (a replay: the game is not over, so it can be analysed)."""
    w.context.add_init_script(init_script)
    w.goto_ready(server)
    open_record(w, sixty_moves().record)
    w.page.locator('.move-list button[data-key="ply-1"]').click()
    return w.page


def renderers_rss() -> int:
    """Resident bytes of this test run's Chromium renderer processes (the
    page's, which holds its workers: they are threads of it), from /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                parent = int(open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry))
    mine, todo = [], [os.getpid()]
    while todo:
        pid = todo.pop()
        mine.append(pid)
        todo.extend(children.get(pid, []))
    total = 0
    for pid in mine:
        try:
            if b"--type=renderer" not in open(f"/proc/{pid}/cmdline", "rb").read():
                continue
            for line in open(f"/proc/{pid}/status"):
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            continue
    return total


# the SHA-256 the page's worker stored with its Python snapshot (web/worker.js), or null
SNAPSHOT_SHA = """async () => {
  const kept = await (await caches.open("quetgames python snapshot")).match(new URL("python-snapshot.bin", location.href).href);
  return kept ? kept.headers.get("X-Snapshot-SHA256") : null;
}"""


# The page reads its cache (SNAPSHOT_SHA) in a loop of its own, 100 ms apart,
# until the snapshot is there, and keeps the answer where a plain (not async)
# predicate can see it: wait_for_function takes the promise an async function
# returns for a truthy answer at once, so it read a snapshot not yet kept
# (issue 55).
WATCH_SNAPSHOT = f"""() => {{
  if (!window.__snapshotWatch) {{
    window.__snapshotWatch = true;
    const ask = async () => {{
      window.__snapshotSha = await ({SNAPSHOT_SHA})();
      if (!window.__snapshotSha) setTimeout(ask, 100);
    }};
    ask();
  }}
  return window.__snapshotSha ?? null;
}}"""


def kept_snapshot_sha(page: Page, timeout_s: float = 30.0) -> str:
    """The checksum of the page's kept Python snapshot, once it is kept;
    fails when none is kept within `timeout_s`."""
    page.evaluate("() => { window.__snapshotWatch = false; window.__snapshotSha = null; }")
    return str(page.wait_for_function(WATCH_SNAPSHOT, timeout=timeout_s * 1000).json_value())


def test_a_sixty_move_game_first_look_then_final(measuring_browser: Browser, server: str) -> None:
    """Times Analyse on a 60-move game at the default budget (click to the
    first look's whole chart, and to the final result) and the memory each
    extra worker costs, and writes them down (e2e/artifacts/analysis-timing.json,
    and printed): measured figures, not asserted, on a shared machine. What
    is checked: the chart comes first from the first look (points marked not
    final), then every point is final."""
    w = watched_page(measuring_browser, server, timeout_ms=30_000)
    try:
        page = sixty_moves_replayed(w, server, COUNT_WORKERS)
        page.locator(".replay-banner").wait_for()
        # the page's worker keeps its snapshot once the page is quiet for a second after ready
        kept_snapshot = kept_snapshot_sha(page)
        rss_before = renderers_rss()
        load_before = os.getloadavg()[0]
        page.locator("button.analysis-start").click()
        began = time.perf_counter()
        page.locator(".analysis-chart").wait_for(timeout=60_000)
        first_look = time.perf_counter() - began
        points = page.locator(".analysis-chart .point")
        assert points.count() == 60
        provisional = page.locator(".analysis-chart .point.provisional").count()
        assert provisional > 0  # drawn from the first look, not yet final
        page.screenshot(path=str(ARTIFACTS / "analysis-sixty-first-look.png"), full_page=True)
        page.locator("section.analysis").screenshot(path=str(ARTIFACTS / "analysis-sixty-first-look-panel.png"))
        # the pool's memory once its extra workers have started, sampled while it works
        extra = page.evaluate(EXTRA_WORKERS)
        page.wait_for_function(f"() => window.__workers.extraTimings.length >= {extra} || !document.querySelector('.analysis-progress')",
                               timeout=60_000)
        rss_peak = renderers_rss()
        while page.locator(".analysis-progress").count():
            rss_peak = max(rss_peak, renderers_rss())
            page.wait_for_timeout(250)  # a measuring window: resident memory sampled every 250 ms while the pool works
        page.wait_for_function(FINISHED, timeout=120_000)
        final = time.perf_counter() - began
        load_after = os.getloadavg()[0]
        assert page.locator(".analysis-chart .point.final").count() == 60
        assert page.locator(".analysis-chart .point.provisional").count() == 0
        assert page.evaluate("window.__workers.live") == 1  # the extra workers end with the run
        timings = page.evaluate("window.__workers.extraTimings")
        # the extra workers only read the page's kept Python snapshot (web/worker.js): it is still the same one
        assert page.evaluate(SNAPSHOT_SHA) == kept_snapshot
        page.screenshot(path=str(ARTIFACTS / "analysis-sixty.png"), full_page=True)
        page.locator("section.analysis").screenshot(path=str(ARTIFACTS / "analysis-sixty-panel.png"))
        figures = {
            "moves": 60, "first_look_s": round(first_look, 2), "final_s": round(final, 2),
            "first_look_points_not_final": provisional,
            "cores": os.cpu_count(), "hardware_concurrency": page.evaluate("navigator.hardwareConcurrency"),
            "extra_workers": extra, "extra_workers_started": page.evaluate("window.__workers.started") - 1,
            "extra_worker_ready_ms": [round(t.get("ready", 0)) for t in timings],
            "extra_worker_snapshot": [t.get("snapshot") for t in timings],
            "extra_worker_wasm_memory_mb": [round(t["wasm_memory"] / 1e6, 1) for t in timings if t.get("wasm_memory")],
            "renderer_rss_before_mb": round(rss_before / 1e6, 1), "renderer_rss_peak_mb": round(rss_peak / 1e6, 1),
            "rss_per_extra_worker_mb": round((rss_peak - rss_before) / max(1, len(timings)) / 1e6, 1) if rss_before else None,
            "load_average_1min": [round(load_before, 2), round(load_after, 2)],
        }
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / "analysis-timing.json").write_text(json.dumps(figures, indent=2) + "\n")
        print(f"\nAnalyse, 60 moves: {json.dumps(figures)}")
        assert w.errors == []
    finally:
        w.context.close()


# -- the page stays smooth while it runs (run by hand: QUET_MEASURE_ANALYSIS=1) --------

RAF_PROBE = """
window.__gaps = [];
let last = performance.now();
(function tick(now) { window.__gaps.push(now - last); last = now; requestAnimationFrame(tick); })(performance.now());
window.__since = 0;
window.__resetGaps = () => { window.__gaps = []; window.__longTasks = []; last = window.__since = performance.now(); };
window.__longTasks = [];
try {
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push([Math.round(e.startTime - window.__since), Math.round(e.duration)]); })
    .observe({ type: "longtask" });
} catch (e) {}
"""


@pytest.mark.skipif(not os.environ.get("QUET_MEASURE_ANALYSIS"), reason="a measurement, run by hand")
def test_measure_a_sixty_move_game_at_the_default_budget(measuring_browser: Browser, server: str) -> None:
    w = watched_page(measuring_browser, server, timeout_ms=30_000)
    try:
        page = sixty_moves_replayed(w, server, RAF_PROBE)
        # the same page idle first, for comparison: this machine is shared and loaded
        page.evaluate("window.__resetGaps()")
        time.sleep(10)  # a measuring window: the idle page's frame gaps, for comparison
        idle, idle_tasks = page.evaluate("[window.__gaps, window.__longTasks]")
        page.locator("button.analysis-start").click()
        page.evaluate("window.__resetGaps()")
        began = time.perf_counter()
        page.wait_for_function(FINISHED, timeout=180_000)
        took = time.perf_counter() - began
        print(f"\nchart drawn at {page.evaluate('performance.now() - window.__since'):.0f} ms (page time)")
        gaps, tasks = page.evaluate("[window.__gaps, window.__longTasks]")
        assert page.locator(".analysis-chart .point").count() == 60
        page.screenshot(path=str(ARTIFACTS / "analysis-sixty.png"), full_page=True)
        print(f"\n60 moves: {took:.1f} s; rAF ticks {len(gaps)}, longest gap {max(gaps):.0f} ms, "
              f"gaps over 50 ms: {sum(g > 50 for g in gaps)}; long tasks [start ms, duration ms] {tasks}\n"
              f"idle 10 s: rAF ticks {len(idle)}, longest gap {max(idle):.0f} ms, gaps over 50 ms: {sum(g > 50 for g in idle)}; "
              f"long tasks {idle_tasks}")
    finally:
        w.context.close()


def test_one_sided_marks_say_why(w: Watched, page: Page) -> None:
    """Issue 55: a Nonconformity game with a blunder on one side and none on
    the other: the panel states the engine's reason under the accuracy (picks
    secret and at once, judged on their chances), in the engine's words."""
    record = "q2.nc.l3_m1000_s12x18.10_224_20_490.iATYsI02vuubb"  # (tests/test_analysis.py's ONE_SIDED)
    expected = quetgames.analyse(quetgames.load(record), iterations=ITERATIONS)
    assert expected.one_sided() and expected.remark
    open_record(w, record)
    analysed(page)
    remark = page.locator("section.analysis .analysis-remark")
    assert remark.inner_text() == f"Why the marks are one-sided: {expected.remark}"
    w.screenshot("analysis-one-sided")
