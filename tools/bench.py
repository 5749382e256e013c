"""Start-up, move and size benchmark of the site against bare Pyodide.

    python build.py bench [--reps N] [--net-reps N] [--mbit 10] [--delay-ms 60]
                          [--only local|network|moves] [--write-docs]

build.py sets up the test venv (.cache/venv), builds dist/ if needed, finds a
Chromium, and runs this module with the venv's Python. One browser, in one
run, side by side (bare and app alternate in every repetition, so a busy
machine slows both). Bare Pyodide is always the untouched files of the pinned
npm package, unpacked into a temporary folder and served at
/_bench/pyodide-npm/ (never dist/pyodide/, whose files the build may change).

Local (127.0.0.1, bytes free; build.py's server):
1. bare Pyodide: /_bench/bare.html only calls loadPyodide({indexURL}); first
   visit (fresh browser context, empty caches) and repeat visit (new tab, same
   context);
2. the app: navigation -> <html data-engine=ready> on a game page, first and
   repeat visit, with first (contentful) paint and the first frame showing the
   loading state;
3. the app embedded (embed.html?start=visible in an iframe): long tasks the
   host page's main thread sees, same-origin host and cross-site host;
4. move latency over whole games of all five games (MOVE_GAMES of each set),
   clicked in the page THINK_MS apart (the page's first game FIRST_LOOK_MS
   after it is ready), a fresh page's first game clicked at once, and the
   machine's floor for the same timing (bench_pages/floor.html: a worker that
   answers at once);
5. computer move time per level, in the worker (worker.js?diagnostics);
6. bytes a first visit transfers, Pyodide's and our own.

Network (tools/netsim.py: one shared link, --mbit and --delay-ms), first
visits only, a plain static host and a compressing (gzip) host:
7. bare Pyodide and the app: navigation -> ready, the app's board drawn, and
   the bytes the server sent, to ready and with the service worker's precache;
8. the home page's game list and a setup form: navigation -> on screen.

It prints a table with the budgets (PASS/MISS) and writes docs/bench.json;
--write-docs also puts the table into docs/BENCH.md between its markers.
Figures are medians over the repetitions unless the row says otherwise.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import random
import re
import shutil
import statistics
import sys
import tarfile
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import quote, urlsplit

ROOT = Path(__file__).resolve().parent.parent
PAGES = Path(__file__).resolve().parent / "bench_pages"
sys.path[:0] = [str(ROOT), str(ROOT / "py"), str(Path(__file__).resolve().parent)]

import build  # noqa: E402  (the repo's build.py)
import netsim  # noqa: E402  (tools/netsim.py)
import quetgames  # noqa: E402
from e2e import browser as browser_choice  # noqa: E402

from playwright.sync_api import BrowserContext, Page, sync_playwright  # noqa: E402

LOAD_TIMEOUT_MS = 180_000
# The games whose moves are timed: each game at its defaults, and at its
# largest common settings (the biggest board or ring the setup offers before
# games get unusually long).
MOVE_SETS: list[tuple[str, dict]] = [
    ("convoluted-coprimality", {}), ("convoluted-coprimality", {"size": 20, "players": 3}),
    ("enumeration", {}), ("enumeration", {"size": 12}),
    ("multiplications", {}), ("multiplications", {"k": 6}),
    ("prime-target", {}), ("prime-target", {"k": 3, "rays": 12}),
    ("nonconformity", {}),
]


# A person looks at a newly loaded page's board before the first click: the
# bench waits this long after a page is first ready, then clicks a frame
# apart. Clicked at once, a fresh page's first game is two to four times
# slower (V8 still compiling what the start ran, the first visit's keeping),
# which the bench measures on its own (Bench.cold_game) and reports beside.
FIRST_LOOK_MS = 1500

# Between one board and the next click a person takes a moment too: the bench
# waits this long before each click (a fifth of a second is quick, about a
# simple reaction time). The page works out the board's moves meanwhile
# (web/bridge/ahead.js); before 26 November the bench clicked a frame apart.
THINK_MS = 200


# Where the bench stands (`--profile`). "desktop": the figures so far, a
# 1100 x 900 window at the machine's own speed, a 10 Mbit/s line of 60 ms.
# "phone" (issue 41), as Lighthouse's mobile profile models a mid-range phone:
# the page's main thread slowed 4x (the DevTools protocol's
# Emulation.setCPUThrottlingRate), a 390 x 844 touch screen at 3 device pixels
# a CSS pixel, first visits over slow 4G (1.6 Mbit/s, 150 ms a request) and
# again over 10 Mbit/s and 60 ms. Chromium slows only a page's (or an
# out-of-process frame's) main thread: it refuses the rate for a worker
# ("Operation is only supported for pages, not workers", 27 November), so the
# Python worker and V8's compiling threads run at the machine's speed in both
# profiles, which the tables say.
PROFILES: dict[str, dict] = {
    "desktop": {"cpu": 1, "viewport": {"width": 1100, "height": 900}, "device": {},
                "networks": [(10.0, 60.0)], "net_visits": [(k, h) for k in ("bare", "app", "home", "setup") for h in ("plain", "gzip")]},
    "phone": {"cpu": 4, "viewport": {"width": 390, "height": 844},
              "device": {"device_scale_factor": 3, "is_mobile": True, "has_touch": True},
              "networks": [(1.6, 150.0), (10.0, 60.0)],
              # bare Pyodide from a gzip CDN only (its plain-host visit sends 13.5 MB: 70 s at 1.6 Mbit/s)
              # and bare Pyodide in a worker, like for like with the app's Python (Chromium does not slow workers)
              "net_visits": [("bare", "gzip"), ("bare_worker", "gzip"), ("app", "plain"), ("app", "gzip"), ("home", "gzip"),
                             ("embed", "gzip")]},
}
PROFILE = PROFILES["desktop"]


def context_options() -> dict:
    """Keyword arguments of a browser context in this profile: its window and device."""
    return {"viewport": dict(PROFILE["viewport"]), **PROFILE["device"]}


def slowed(context: BrowserContext, target) -> None:
    """`target` (a page, or an out-of-process frame) with its main thread slowed
    as the profile says; the rate stays through its navigations."""
    if PROFILE["cpu"] != 1:
        session = context.new_cdp_session(target)
        session.send("Emulation.setCPUThrottlingRate", {"rate": PROFILE["cpu"]})
        _SLOWING.append(session)  # (kept: the rate holds while its session is attached)


_SLOWING: list = []


def open_page(context: BrowserContext) -> Page:
    page = context.new_page()
    slowed(context, page)
    return page


def move_set_name(game_id: str, options: dict) -> str:
    return game_id + ("" if not options else " (" + ", ".join(f"{k} {v}" for k, v in options.items()) + ")")
BENCH_JSON = ROOT / "docs" / "bench.json"
BENCH_MD = ROOT / "docs" / "BENCH.md"
TABLE_START, TABLE_END = "<!-- bench:table -->", "<!-- /bench:table -->"
TTI_GAME = "multiplications"  # the game page whose start-up is timed
SW_SCRIPT = "sw.js"  # the site's service worker (web/shell/offline.js registers it)

# Budgets (issue 7): checked and reported here, never enforced by tests.
REPEAT_RATIO = 0.5     # app repeat ready <= 1/2 of bare repeat loadPyodide()
FIRST_RATIO = 1.0      # app first ready <= bare first loadPyodide()
LOADING_MS = 300       # loading state on screen
MOVE_P95_MS = 16       # click -> board shows the move
OWN_BYTES = 150_000    # our own files a first visit transfers, no HTTP compression
# Over the network (first visits, tools/netsim.py's link):
NET_VS_BARE_GZIP = 0.65   # app ready, plain host <= 0.65 x bare ready, compressing host
NET_VS_BARE_PLAIN = 0.35  # app ready, plain host <= 0.35 x bare ready, plain host
NET_BYTES = 4_500_000     # app, plain host: bytes sent in all (to ready and the precache)
NET_ON_SCREEN_MS = 1000   # home page's game list and a setup form on screen, plain host
# The phone profile (issue 41), on each of its networks:
PHONE_VS_BARE = 0.5       # a shared link's app ready <= 0.5 x bare Pyodide ready from a gzip CDN
PHONE_BYTES = 3_600_000   # and at most 3.6 MB sent in all (plain host, the precache included)

# The network's defaults (issue "First visit over a real network").
NET_MBIT, NET_DELAY_MS, NET_REPS = 10.0, 60.0, 3
HOSTS = ("plain", "gzip")  # netsim's plain static host and compressing host
# What bare.html loads: the npm package's own files, as they are.
BARE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
BARE_MOUNT = "/_bench/pyodide-npm/"

# Records, from the first script on: when <html data-engine> first says ready,
# and the first frame in which the loading state is on screen.
RECORD_START = """
(() => {
  const b = window.__bench = {ready: null, loading: null};
  new MutationObserver(() => {
    if (b.ready === null && document.documentElement.dataset.engine === "ready") b.ready = performance.now();
  }).observe(document, {subtree: true, attributes: true, attributeFilter: ["data-engine"]});
  const frame = (t) => {
    const el = document.getElementById("loading");
    if (el && !el.hidden && el.getBoundingClientRect().height > 0 && el.textContent.trim()) b.loading = performance.now();
    else if (b.ready === null) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();
"""

# Network visits, from the first script on (a global of its own: bare.js sets
# window.__bench): when <html data-engine> first says ready, and the first frame
# in which the board (an <svg> holding [data-move] targets), a game card of the
# home page with its text, or a setup form is on screen.
NET_RECORD = """
(() => {
  const b = window.__net = {ready: null, board: null, list: null, form: null};
  new MutationObserver(() => {
    if (b.ready === null && document.documentElement.dataset.engine === "ready") b.ready = performance.now();
  }).observe(document, {subtree: true, attributes: true, attributeFilter: ["data-engine"]});
  const shown = (el) => Boolean(el) && el.getBoundingClientRect().height > 0 && (el.checkVisibility?.() ?? true);
  const frame = () => {
    const now = performance.now();
    if (b.board === null) {
      const target = document.querySelector("#view [data-move]");
      if (target && shown(target.closest("svg") ?? target)) b.board = now;
    }
    if (b.list === null) {
      const card = document.querySelector(".game-card");
      if (shown(card) && card.textContent.trim()) b.list = now;
    }
    if (b.form === null && shown(document.querySelector(".setup-screen form, form.setup"))) b.form = now;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();
"""

# performance.now() once the page's service worker is activated, or null
# after `ms` (none registered, or its install failed).
SW_ACTIVATED = """
async (ms) => {
  if (!("serviceWorker" in navigator)) return null;
  const activated = (async () => {
    const worker = (await navigator.serviceWorker.ready).active;
    if (worker.state !== "activated") {
      await new Promise((r) => worker.addEventListener("statechange", () => worker.state === "activated" && r()));
    }
    return performance.now();
  })();
  return Promise.race([activated, new Promise((r) => setTimeout(() => r(null), ms))]);
}
"""

PAINTS = """() => Object.fromEntries(performance.getEntriesByType("paint").map(e => [e.name, e.startTime]))"""

# Plays a whole game by clicking [data-move] targets chosen with a seeded
# generator. A move is timed from the click (made at the start of a frame, as
# real input is) to the page showing it: the board holds the new move (the game
# view's data-ply) and <html data-engine> is back to ready ("dom"), to the end
# of the frame that paints it ("frame"), and the main thread's work until then
# without the wait for that frame ("painted").
# Curtains (hand the device over) and questions are answered and not timed.
PLAY_GAME = """
async ({seed, maxMoves, think = 0}) => {
  let s = seed >>> 0;
  const rnd = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  const html = document.documentElement;
  const until = (pred, ms = 20000) => new Promise((resolve, reject) => {
    if (pred()) return resolve(performance.now());
    const timer = setTimeout(() => { obs.disconnect(); reject(new Error("the page did not settle")); }, ms);
    const obs = new MutationObserver(() => {
      if (pred()) { obs.disconnect(); clearTimeout(timer); resolve(performance.now()); }
    });
    obs.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  });
  const question = () => document.querySelector("dialog[open]");
  const answer = (d) => (d.querySelector("button[value=yes]") ?? [...d.querySelectorAll("button")].at(-1)).click();
  const out = {dom: [], frame: [], painted: [], split: [], moves: 0, untimed: 0, ended: ""};
  for (let i = 0; i < maxMoves; i++) {
    await until(() => html.dataset.engine === "ready");
    const asked = question();
    if (asked) { answer(asked); out.untimed++; await frame(); continue; }
    const curtain = document.querySelector(".curtain button");
    if (curtain) { curtain.click(); out.untimed++; await frame(); continue; }
    const targets = [...document.querySelectorAll("#view [data-move]")];
    if (!targets.length) {
      // only closed lists of moves (Nonconformity's long ones): a person opens one first, untimed
      const closed = [...document.querySelectorAll("#view details:not([open]) > summary")];
      if (!closed.length) break;
      closed[Math.floor(rnd() * closed.length)].click(); out.untimed++; await frame(); continue;
    }
    const el = targets[Math.floor(rnd() * targets.length)];
    const plies = () => document.querySelector("#view [data-ply]")?.dataset.ply;
    const before = plies();
    if (think) await new Promise((r) => setTimeout(r, think));  // a person looks before clicking
    // Every frame from here on: when its animation-frame callbacks began (this
    // one is asked for first, so it runs first in each frame, before any the
    // click asks for) and the first task after its rendering (style, layout,
    // paint), a message posted first too, so it comes before any work the
    // page puts off until after the paint.
    const frames = [];
    let watching = true, rendered = null;
    const watch = () => {
      if (!watching) return;
      const f = {at: performance.now(), end: null};
      frames.push(f);
      const after = new MessageChannel();
      after.port1.onmessage = () => { f.end = performance.now(); rendered?.(); };
      after.port2.postMessage(0);
      requestAnimationFrame(watch);
    };
    requestAnimationFrame(watch);
    await frame();
    const t0 = performance.now();
    el.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true, view: window}));  // SVG targets too
    // Shown: the board holds one move more (the game view's root says how many
    // moves its board shows: data-ply), or (a pick still secret) the hand-over
    // screen is up. (Before 27 November: the address holding the new record,
    // which the page then rewrote before drawing; it may now follow the board.)
    const shown = () => (plies() !== before || document.querySelector(".curtain")) && html.dataset.engine === "ready";
    await until(() => question() || shown());
    if (question()) {  // a warning before the move: a person reads it, so not timed
      answer(question());
      await until(shown);
      out.untimed++; out.moves++;
      continue;
    }
    const tDom = performance.now();
    // The frame that paints the board: the first whose rendering ends after the
    // board is drawn. The main thread's work for the move until the board is
    // painted is the click's part plus that frame's part from its callbacks
    // (or the board, if it was drawn in one of them) to the end of its
    // rendering, without the wait for the frame: work put off to the same
    // frame counts, work put off until after its paint does not.
    const paintingFrame = () => frames.find((f) => f.end != null && f.end > tDom);
    if (!paintingFrame()) {
      await Promise.race([new Promise((r) => { rendered = () => paintingFrame() && r(); }),
                          new Promise((r) => setTimeout(r, 5000))]);  // (a hidden page paints no frame)
    }
    const painting = paintingFrame();
    watching = false;
    rendered = null;
    out.dom.push(tDom - t0);
    if (painting) {
      out.frame.push(painting.end - t0);
      out.painted.push(tDom - t0 + (painting.end - Math.max(painting.at, tDom)));
    }
    // where the time went: the engine's requests (the worker's Python and its
    // JSON parse, the rest is the message both ways and the page's wait for
    // its turn), and the page's drawing (web/bridge/engine.js, web/view/gameview.js)
    const seen = performance.getEntriesByType("measure").filter((m) => m.startTime >= t0 && m.startTime + m.duration <= tDom + 0.5);
    const sum = (xs) => xs.reduce((a, b) => a + b, 0);
    const requests = seen.filter((m) => m.name.startsWith("engine "));
    const python = sum(requests.map((m) => m.detail?.python ?? 0)), parse = sum(requests.map((m) => m.detail?.parse ?? 0));
    // the page's own bookkeeping around them: from the click to the first request,
    // from the last answer to the drawing, and from the drawing to the board shown
    const draws = seen.filter((m) => m.name === "draw");
    const firstAsk = requests.length ? Math.min(...requests.map((m) => m.startTime)) : null;
    const lastAnswer = requests.length ? Math.max(...requests.map((m) => m.startTime + m.duration)) : null;
    const drawStart = draws.length ? Math.min(...draws.map((m) => m.startTime)) : null;
    const drawEnd = draws.length ? Math.max(...draws.map((m) => m.startTime + m.duration)) : null;
    // the message's two trips, on the clock the page and the worker share (their time origins differ)
    const trip = (m) => m.detail?.arrived == null ? null : {to: m.detail.arrived - (performance.timeOrigin + m.startTime),
                                                           back: performance.timeOrigin + m.startTime + m.duration - m.detail.replied};
    const trips = requests.map(trip).filter(Boolean);
    out.split.push({python, parse, message: sum(requests.map((m) => m.duration)) - python - parse,
                    to_worker: sum(trips.map((t) => t.to)), to_page: sum(trips.map((t) => t.back)),
                    draw: sum(draws.map((m) => m.duration)),
                    before: firstAsk == null ? 0 : firstAsk - t0,
                    between: lastAnswer == null || drawStart == null ? 0 : Math.max(0, drawStart - lastAnswer),
                    after: drawEnd == null ? 0 : tDom - drawEnd,
                    panels: sum(performance.getEntriesByName("draw panels").filter((m) => m.startTime >= tDom).map((m) => m.duration)),
                    requests: requests.map((m) => m.name.slice(7)), chars: sum(requests.map((m) => m.detail?.chars ?? 0)),
                    regions: Object.fromEntries(seen.filter((m) => m.name.startsWith("region ")).map((m) => [m.name.slice(7), m.duration]))});
    for (const m of performance.getEntriesByType("measure")) performance.clearMeasures(m.name);
    out.moves++;
  }
  out.ended = document.getElementById("status")?.textContent ?? "";
  return out;
}
"""


# An embedded game from its poster (run in the frame): a reader taps Start at
# once; timed from the tap to the first frame showing a board that takes moves
# (<html data-engine=ready> and [data-move] targets), then one tap on a target
# to the board showing the move (the game root's data-ply has moved on),
# `look` ms after the board is up (FIRST_LOOK_MS: a reader looks at a new board first).
EMBED_START = """
async (look) => {
  const html = document.documentElement;
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  const until = (pred, ms) => new Promise((resolve, reject) => {
    if (pred()) return resolve(performance.now());
    const timer = setTimeout(() => { obs.disconnect(); reject(new Error("the embed did not get there")); }, ms);
    const obs = new MutationObserver(() => {
      if (pred()) { obs.disconnect(); clearTimeout(timer); resolve(performance.now()); }
    });
    obs.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  });
  const targets = () => [...document.querySelectorAll("#embed [data-move]")];
  await frame();
  const t0 = performance.now();
  document.getElementById("embed-start").click();
  await until(() => html.dataset.engine === "error" || (html.dataset.engine === "ready" && targets().length > 0), 600000);
  if (html.dataset.engine === "error") return {error: document.getElementById("embed")?.textContent ?? "error"};
  await frame();
  const board = performance.now() - t0;
  const root = document.querySelector("[data-ply]");
  const before = root?.dataset.ply;
  await new Promise((r) => setTimeout(r, look));  // a reader looks at the new board before tapping
  await frame();
  const t1 = performance.now();
  targets()[0].dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true, view: window}));
  await until(() => document.querySelector("dialog[open], .curtain") || (document.querySelector("[data-ply]")?.dataset.ply !== before
                     && html.dataset.engine === "ready"), 60000);
  return {board, tap: performance.now() - t1, started_at: t0};
}
"""


# The machine's floor (bench_pages/floor.html): the same click -> answer in the
# document timing as PLAY_GAME, against a worker that answers at once.
PLAY_FLOOR = """
async ({clicks}) => {
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  const html = document.documentElement, button = document.getElementById("move"), out = [];
  for (let i = 0; i < clicks; i++) {
    const before = html.dataset.answers;
    await frame();
    const t0 = performance.now();
    button.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true, view: window}));
    await new Promise((resolve) => {
      const seen = new MutationObserver(() => { if (html.dataset.answers !== before) { seen.disconnect(); resolve(); } });
      seen.observe(html, {attributes: true, attributeFilter: ["data-answers"]});
    });
    out.push(performance.now() - t0);
  }
  return out;
}
"""
FLOOR_CLICKS = 300
# Whole games of each move set in a full run: a short game times a dozen
# moves, whose p95 would be its slowest one.
MOVE_GAMES = 3


# -- small statistics ---------------------------------------------------------------


def median(xs: list[float]) -> float | None:
    return statistics.median(xs) if xs else None


def p95(xs: list[float]) -> float | None:
    """Nearest-rank 95th percentile."""
    if not xs:
        return None
    ordered = sorted(xs)
    return ordered[max(0, -(-95 * len(ordered) // 100) - 1)]


def ms(x: float | None) -> str:
    return "–" if x is None else f"{x:,.0f} ms" if x >= 100 else f"{x:.1f} ms"


def kb(x: float | None) -> str:
    return "–" if x is None else f"{x / 1e6:.2f} MB" if x >= 1e6 else f"{x / 1e3:.1f} kB"


def secs(x: float | None) -> str:
    """Milliseconds shown as seconds."""
    return "–" if x is None else f"{x / 1000:.2f} s"


def ratio(a: float | None, b: float | None) -> float | None:
    return None if a is None or not b else a / b


# -- the machine --------------------------------------------------------------------


def machine(browser_version: str) -> dict:
    cpu = platform.processor() or platform.machine()
    try:
        found = re.search(r"^model name\s*:\s*(.+)$", Path("/proc/cpuinfo").read_text(), re.M)
        cpu = found.group(1).strip() if found else cpu
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "browser": f"Chromium {browser_version} (headless)",
        "python": platform.python_version(),
        "load_average_start": os.getloadavg() if hasattr(os, "getloadavg") else None,
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }


# -- the measurements ---------------------------------------------------------------


class Bench:
    def __init__(self, browser, base: str, cross_base: str) -> None:
        self.browser = browser
        self.base = base              # http://127.0.0.1:PORT/
        self.cross_base = cross_base  # the same server as another site (http://localhost:PORT/)
        self.record = quetgames.new_game(TTI_GAME).record

    def context(self) -> BrowserContext:
        return self.browser.new_context(**context_options())

    # 1. bare Pyodide
    def bare(self) -> dict:
        context = self.context()
        try:
            return {"first": self._bare_visit(context), "repeat": self._bare_visit(context)}
        finally:
            context.close()

    def _bare_visit(self, context: BrowserContext) -> dict:
        page = open_page(context)
        try:
            page.goto(self.base + "_bench/bare.html")
            page.locator("html:not([data-state=loading])").wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)
            result = page.evaluate("window.__bench")
            if "error" in result:
                raise RuntimeError(f"bare Pyodide failed: {result['error']}")
            return result
        finally:
            page.close()

    # 2. the app, with 6. its bytes on the first visit
    def app(self) -> dict:
        context = self.context()
        responses: list = []
        context.on("response", lambda response: responses.append(response))
        try:
            # (the first visit's page stays open while it settles: its worker keeps
            # the snapshot and its expanded downloads once the page is quiet)
            def settle(page: Page, result: dict, said: list[str]) -> None:
                result["bytes"] = self._bytes(responses)  # (up to ready: what the visit itself needed)
                self._settle(page, said, snapshot_made=bool((result.get("worker") or {}).get("snapshot_ms")))

            first = self._app_visit(context, before_closing=settle)
            repeat = self._app_visit(context)
            return {"first": first, "repeat": repeat}
        finally:
            context.close()

    def _app_visit(self, context: BrowserContext, before_closing=None) -> dict:
        page = open_page(context)
        timings: list = []
        said: list[str] = []  # what the worker said it kept (see _settle)
        page.on("console", lambda msg: "engine ready" in msg.text and timings.append(msg))
        page.on("console", lambda msg: msg.text.startswith("quetgames kept") and said.append(msg.text))
        page.add_init_script(RECORD_START)
        try:
            page.goto(f"{self.base}index.html#{self.record}")
            page.locator("html[data-engine=ready]").wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)
            result = page.evaluate("window.__bench")
            paints = page.evaluate(PAINTS)
            result["first_paint"] = paints.get("first-paint")
            result["first_contentful_paint"] = paints.get("first-contentful-paint")
            # the loading state is on screen once its frame is painted
            if result["loading"] is not None and result["first_contentful_paint"] is not None:
                result["loading"] = max(result["loading"], result["first_contentful_paint"])
            worker = None
            if timings:
                try:
                    worker = timings[0].args[1].json_value()
                except Exception:  # noqa: BLE001  (the console line is a nicety)
                    worker = None
            result["worker"] = worker
            result["controlled_by_service_worker"] = page.evaluate("Boolean(navigator.serviceWorker?.controller)")
            if before_closing is not None:
                before_closing(page, result, said)
            return result
        finally:
            page.close()

    def _settle(self, page: Page, said: list[str], snapshot_made: bool) -> None:
        """Between the first and the repeat visit, on the first visit's page: let
        what it left running finish (the worker storing its snapshot and then its
        expanded downloads, which it says once done; the service worker's
        install and precache), so the repeat visit meets the state a returning
        person would."""
        # (the sync API hands out events only inside a call: none slips between the check and the wait)
        while snapshot_made and not any("kept expanded copies" in text for text in said):
            page.wait_for_event("console", predicate=lambda msg: "kept expanded copies" in msg.text, timeout=LOAD_TIMEOUT_MS)
        page.evaluate("navigator.serviceWorker ? navigator.serviceWorker.ready.then(() => true) : false")

    def _bytes(self, responses: list) -> dict:
        """Body bytes of the responses the page and its worker got up to ready, by
        Content-Length (the server always sends it and never compresses); the
        service worker's own precache fetches are left out."""
        pyodide = own = 0
        files: dict[str, int] = {}
        for response in responses:
            url = response.url
            if not url.startswith(self.base) or response.request.service_worker is not None:
                continue
            if response.from_service_worker or response.status != 200:
                continue
            size = int(response.headers.get("content-length", 0))
            path = url[len(self.base):].split("#")[0] or "index.html"
            files[path] = files.get(path, 0) + size
            if path.startswith("pyodide/"):
                pyodide += size
            else:
                own += size
        return {"pyodide": pyodide, "own": own, "files": dict(sorted(files.items(), key=lambda kv: -kv[1]))}

    # 3. embedded
    def embed(self, cross: bool) -> dict:
        context = self.context()
        page = open_page(context)
        try:
            src = f"{self.base}embed.html?start=visible#{self.record}"
            host = (self.cross_base if cross else self.base) + "_bench/host.html?src=" + quote(src, safe="")
            started = time.monotonic()
            page.goto(host)
            page.frame_locator("iframe").locator("html[data-engine=ready]").wait_for(
                state="attached", timeout=LOAD_TIMEOUT_MS)
            page.evaluate("() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)))")
            tasks = page.evaluate("window.__longtasks")
            return {
                "long_tasks": len(tasks),
                "long_task_ms": sum(t["duration"] for t in tasks),
                "blocking_ms": sum(max(0.0, t["duration"] - 50) for t in tasks),  # as in Total Blocking Time
                "longest_ms": max((t["duration"] for t in tasks), default=0.0),
                "ready_s": time.monotonic() - started,
            }
        finally:
            context.close()

    # 4. move latency
    def moves(self, seed: int, only: set[str] | None = None) -> dict:
        context = self.context()
        page = open_page(context)
        page.set_default_timeout(LOAD_TIMEOUT_MS)
        page.add_init_script("globalThis.quetTimings = true")  # the page then times its parts (engine.js, gameview.js)
        out = {}
        try:
            for i, (game_id, options) in enumerate(MOVE_SETS):
                name = move_set_name(game_id, options)
                if only is not None and name not in only:
                    continue
                for rep in range(MOVE_GAMES):
                    look = FIRST_LOOK_MS if not out else 0  # the page's first game
                    add_game(out, name, self.game(page, game_id, options, seed + i + 1000 * rep, look))
        finally:
            context.close()
        return out

    def floor(self) -> list[float]:
        """FLOOR_CLICKS clicks on bench_pages/floor.html: the machine's own
        click -> worker -> document time, with no engine and no drawing."""
        context = self.context()
        try:
            page = open_page(context)
            page.goto(self.base + "_bench/floor.html")
            page.locator("html[data-answers]").wait_for(state="attached")
            return page.evaluate(PLAY_FLOOR, {"clicks": FLOOR_CLICKS})
        finally:
            context.close()

    def cold_game(self, seed: int) -> list[float]:
        """The first move set's game on a fresh page of a first visit, clicked
        at once (no FIRST_LOOK_MS): click -> board times."""
        context = self.context()
        try:
            page = open_page(context)
            page.set_default_timeout(LOAD_TIMEOUT_MS)
            page.add_init_script("globalThis.quetTimings = true")
            game_id, options = MOVE_SETS[0]
            return self.game(page, game_id, options, seed)["dom"]
        finally:
            context.close()

    def game(self, page: Page, game_id: str, options: dict, seed: int, look_ms: int = 0) -> dict:
        """One whole game played by clicks in `page` (PLAY_GAME), from its
        opening, the first click `look_ms` after the page is ready."""
        record = quetgames.new_game(game_id, **options).record
        page.goto(f"{self.base}index.html#{record}")
        # (the page may still be ready with the game before: this one shown, then ready)
        page.locator(f'section.game[data-record="{record}"]').wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)
        page.locator("html[data-engine=ready]").wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)
        if look_ms:
            page.wait_for_timeout(look_ms)
        return {"game": game_id, "options": options, **page.evaluate(PLAY_GAME, {"seed": seed, "maxMoves": 400, "think": THINK_MS})}

    # 5. computer moves, in the worker
    def computer(self, seed: int) -> dict:
        context = self.context()
        page = open_page(context)
        page.set_default_timeout(LOAD_TIMEOUT_MS)
        out: dict = {}
        try:
            page.goto(self.base + "_bench/engine.html")
            page.locator("html:not([data-state=loading])").wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)
            rng = random.Random(seed)
            for game_id in quetgames.GAMES:
                positions = positions_of(game_id, rng)
                out[game_id] = {}
                for level in quetgames.players.LEVELS:
                    times = []
                    for record in positions:
                        tries = 1 if level == "strong" else 3
                        for k in range(tries):
                            got = page.evaluate("([r, l, s]) => window.__call('_computer_move', {record: r, level: l, seed: s, budget: 1.0})",
                                                [record, level, seed + k])
                            times.append(got["ms"])
                    out[game_id][level] = {"median_ms": median(times), "max_ms": max(times), "n": len(times)}
        finally:
            context.close()
        return out


def add_game(sets: dict, name: str, played: dict) -> None:
    """Add one whole game's timings (Bench.game) to its move set's in `sets`."""
    kept = sets.setdefault(name, {"game": played["game"], "options": played["options"],
                                  "dom": [], "frame": [], "painted": [], "split": [], "moves": 0, "untimed": 0})
    for field in ("dom", "frame", "painted", "split"):
        kept[field] += played[field]
    kept["moves"] += played["moves"]
    kept["untimed"] += played["untimed"]
    kept["ended"] = played["ended"]


def positions_of(game_id: str, rng: random.Random) -> list[str]:
    """The opening and a position part-way through a random game."""
    state = quetgames.new_game(game_id)
    positions = [state.record]
    for _ in range(rng.randint(3, 8)):
        if state.is_over:
            break
        seat = state.to_move[0]
        after = state.play(rng.choice(state.legal_moves(seat)), seat)
        if after.is_over:
            break
        state = after
    if state.record != positions[0]:
        positions.append(state.record)
    return positions


# -- over the network ---------------------------------------------------------------


class NetBench:
    """First visits through tools/netsim.py's link, one at a time, so the
    meter's exchanges since a visit started are that visit's.

    Every visit is a new browser with a new, empty profile on disk
    (launch_persistent_context), not a new incognito context: an incognito
    context keeps its HTTP cache in memory and does not keep a response as big
    as Pyodide's 9.6 MB wasm, so the service worker's precache would download it
    a second time, which a person's browser (a disk cache) does not."""

    def __init__(self, playwright, launch: dict, servers: dict[str, netsim.Server], meter: netsim.Meter) -> None:
        self.playwright = playwright
        self.launch = launch
        self.servers = servers
        self.meter = meter
        self.record = quetgames.new_game(TTI_GAME).record

    def bare(self, host: str) -> dict:
        return self._visit(host, "_bench/bare.html", "() => (document.documentElement?.dataset.state ?? 'loading') !== 'loading'",
                           kind="bare")

    def bare_worker(self, host: str) -> dict:
        """Bare Pyodide with loadPyodide() in a worker (bench_pages/bare-worker.html):
        like for like with the app, whose Python starts in a worker too."""
        return self._visit(host, "_bench/bare-worker.html", "() => (document.documentElement?.dataset.state ?? 'loading') !== 'loading'",
                           kind="bare")

    def app(self, host: str) -> dict:
        return self._visit(host, f"index.html#{self.record}", "() => ['ready', 'error'].includes(document.documentElement?.dataset.engine)",
                           kind="app")

    def home(self, host: str) -> dict:
        return self._visit(host, "index.html", "() => window.__net?.list != null || document.documentElement?.dataset.engine === 'error'",
                           kind="home")

    def setup(self, host: str) -> dict:
        return self._visit(host, f"index.html#setup={TTI_GAME}",
                           "() => window.__net?.form != null || document.documentElement?.dataset.engine === 'error'", kind="setup")

    def embed(self, host: str) -> dict:
        """A first visit to a blog post holding the embed (bench_pages/host.html
        on another site, localhost, so the frame gets a process of its own, as
        on a blog), through the link: the poster on screen, then a reader's
        Start -> a board that takes moves, and one tap -> the move shown
        (EMBED_START). The frame's main thread is slowed as the page's is."""
        self._quiet(0.3, cap=30)
        base = self.servers[host].base
        host_base = base.replace("//127.0.0.1:", "//localhost:")
        profile = tempfile.mkdtemp(prefix="bench-profile-")
        context = self.playwright.chromium.launch_persistent_context(profile, **context_options(), **self.launch)
        elsewhere: list[str] = []
        context.on("request", lambda r: None if r.url.startswith((base, host_base, "data:", "blob:")) else elsewhere.append(r.url))
        page = context.pages[0] if context.pages else context.new_page()
        slowed(context, page)
        mark = self.meter.mark()
        try:
            src = f"{base}embed.html#{self.record}"
            started = time.monotonic()
            page.goto(host_base + "_bench/host.html?src=" + quote(src, safe=""), wait_until="commit", timeout=LOAD_TIMEOUT_MS)
            frame = page.wait_for_selector("iframe", timeout=LOAD_TIMEOUT_MS).content_frame()
            frame.wait_for_selector("#embed-start", timeout=LOAD_TIMEOUT_MS)
            poster_s = time.monotonic() - started
            try:
                slowed(context, frame)
                own_process = True
            except Exception:  # noqa: BLE001  (a frame in the page's own process is slowed with it)
                own_process = False
            self._quiet(1.0, cap=60)  # what the poster fetched is in; the reader taps Start
            poster_bytes = netsim.summarize(self.meter.since(mark), {})["bytes"]
            got = frame.evaluate(EMBED_START, FIRST_LOOK_MS)
            if "error" in got:
                raise RuntimeError(f"embed on the {host} host: {got['error'][:200]}")
            start_epoch = (frame.evaluate("performance.timeOrigin") + got.pop("started_at")) / 1000
            self._quiet(1.0, cap=60)
            after = [x for x in self.meter.since(mark) if x.arrived >= start_epoch]
            return {"host": host, "poster_s": poster_s, "poster_bytes": poster_bytes, "own_process": own_process,
                    "start_to_board": got["board"], "tap": got["tap"],
                    "bytes_after_start": netsim.summarize(after, {})["bytes"], "elsewhere": elsewhere}
        finally:
            context.close()
            shutil.rmtree(profile, ignore_errors=True)

    def _visit(self, host: str, path: str, until: str, kind: str) -> dict:
        self._quiet(0.3, cap=30)  # the last visit's connections have let go of the link
        base = self.servers[host].base
        profile = tempfile.mkdtemp(prefix="bench-profile-")
        context = self.playwright.chromium.launch_persistent_context(profile, **context_options(), **self.launch)
        elsewhere: list[str] = []  # requests that did not go to this host (there must be none)
        context.on("request", lambda r: None if r.url.startswith((base, "data:", "blob:")) else elsewhere.append(r.url))
        page = context.pages[0] if context.pages else context.new_page()
        slowed(context, page)
        page.add_init_script(NET_RECORD)
        engine: list = []  # the worker's steps, which the page logs once the engine is ready (web/app.js)
        page.on("console", lambda m: engine.append(m) if m.text.startswith("quetgames engine ready") else None)
        mark = self.meter.mark()
        try:
            page.goto(base + path, wait_until="commit", timeout=LOAD_TIMEOUT_MS)
            page.wait_for_function(until, timeout=LOAD_TIMEOUT_MS)
            if page.evaluate("document.documentElement.dataset.engine") == "error" and kind != "bare":
                raise RuntimeError(f"{kind} on the {host} host: the engine failed to load")
            out: dict = {"host": host, "path": path}
            if kind == "bare":
                got = page.evaluate("window.__bench")
                if "error" in got:
                    raise RuntimeError(f"bare Pyodide on the {host} host failed: {got['error']}")
                out["ready"] = got["ready_ms"]
            else:
                net = page.evaluate("window.__net")
                fcp = page.evaluate(PAINTS).get("first-contentful-paint")
                out["first_contentful_paint"] = fcp
                on_screen = lambda t: None if t is None else max(t, fcp or 0.0)  # noqa: E731  (painted, not before FCP)
                if kind == "app":
                    out["ready"] = net["ready"]
                    if net["board"] is None:  # drawn in a frame after ready, at the latest
                        page.wait_for_function("() => window.__net.board !== null", timeout=10_000)
                        net = page.evaluate("window.__net")
                    out["board"] = on_screen(net["board"])
                else:
                    out["on_screen"] = on_screen(net["list" if kind == "home" else "form"])
            if kind in ("bare", "app"):
                ready_at = (page.evaluate("performance.timeOrigin") + out["ready"]) / 1000  # epoch s, as the meter's
                if kind == "app":
                    out["service_worker_activated"] = page.evaluate(SW_ACTIVATED, 180_000)
                self._quiet(1.0, cap=60)  # the precache (if any) is done with the link
                out["bytes"] = netsim.summarize(self.meter.since(mark), {
                    "page": lambda x: not from_service_worker(x),
                    "service_worker": from_service_worker,
                    "before_ready": lambda x: x.arrived <= ready_at,
                    "service_worker_before_ready": lambda x: from_service_worker(x) and x.arrived <= ready_at,
                })
            if kind == "app":
                out["timeline"] = timeline(self.meter.since(mark), page.evaluate("performance.timeOrigin"),
                                           engine[0].args[1].json_value() if engine else None, out)
            out["elsewhere"] = elsewhere
            return out
        finally:
            context.close()
            shutil.rmtree(profile, ignore_errors=True)

    def _quiet(self, seconds: float, cap: float) -> None:
        deadline = time.monotonic() + cap
        while self.meter.quiet_for() < seconds and time.monotonic() < deadline:
            time.sleep(0.05)


def timeline(exchanges: list, origin_ms: float, engine: dict | None, visit: dict) -> dict:
    """A first visit step by step, in ms since navigation started: each file
    the page and its worker fetched (request in, last byte out, bytes sent),
    then the worker's steps (web/worker.js's timings: Pyodide's script in,
    loadPyodide done (the wasm compiled, the standard library unpacked, Python
    started), the engine installed (its compiled zip put on Python's path),
    the engine imported and ready) and the board on screen."""
    at = lambda epoch_s: round(epoch_s * 1000 - origin_ms, 1)  # noqa: E731
    files = [{"path": x.path.split("?")[0], "bytes": x.sent, "requested": at(x.arrived), "done": at(x.done) if x.done else None,
              "encoding": x.encoding} for x in exchanges if not from_service_worker(x) and x.status == 200]
    steps: dict = {}
    if engine:
        base = engine["origin"] - origin_ms  # the worker's boot, on the page's clock
        steps = {"worker started": round(base, 1)}
        for key, label in (("script", "Pyodide's script in"), ("pyodide", "Python started (wasm compiled, stdlib unpacked)"),
                           ("install", "engine installed (its zip on sys.path)"), ("ready", "engine imported, ready")):
            if engine.get(key) is not None:
                steps[label] = round(base + engine[key], 1)
        if engine.get("snapshot_ms") is not None:
            steps["… of which the memory snapshot made"] = round(engine["snapshot_ms"], 1)
    steps["board on screen"] = visit.get("board")
    return {"files": files, "steps": steps}


def from_service_worker(x: netsim.Exchange) -> bool:
    """The service worker's script, or a request the service worker made (its
    fetches carry its script's URL as Referer; the page's carry the page's,
    the Python worker's worker.js)."""
    return x.fetch_dest == "serviceworker" or urlsplit(x.referer).path.endswith("/" + SW_SCRIPT)


def link_check(link: netsim.Link, delay_ms: float) -> dict | None:
    """One second's worth of bytes through the link alone, then two at once,
    against the model (delay + bytes / rate)."""
    if not link.rate:
        return None
    size = int(link.rate)
    with tempfile.TemporaryDirectory(prefix="bench-link-") as tmp:
        for name in ("a.bin", "b.bin"):
            (Path(tmp) / name).write_bytes(os.urandom(size))
        server = netsim.make_server(Path(tmp), link=link, meter=netsim.Meter(), delay_ms=delay_ms)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        port = server.server_address[1]

        def get(name: str, took: list) -> None:
            started = time.monotonic()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            conn.request("GET", "/" + name)
            conn.getresponse().read()
            conn.close()
            took.append(time.monotonic() - started)

        try:
            one: list[float] = []
            get("a.bin", one)
            two: list[float] = []
            threads = [threading.Thread(target=get, args=(name, two)) for name in ("a.bin", "b.bin")]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        finally:
            server.shutdown()
            server.server_close()
    return {"bytes": size, "one_s": one[0], "two_s": sorted(two),
            "model_one_s": delay_ms / 1000 + size / link.rate, "model_two_s": delay_ms / 1000 + 2 * size / link.rate}


def run_network(playwright, dist: Path, mounts: dict[str, Path], reps: int, mbit: float, delay_ms: float, log=print) -> dict:
    link, meter = netsim.Link(mbit), netsim.Meter()
    servers = {host: netsim.make_server(dist, link=link, meter=meter, delay_ms=delay_ms, compress=host == "gzip", mounts=mounts)
               for host in HOSTS}
    for server in servers.values():
        threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        started = time.monotonic()
        warmed = servers["gzip"].warm()
        log(f"bench: network: {mbit:g} Mbit/s, {delay_ms:g} ms; gzipped {warmed} files in {time.monotonic() - started:.1f} s")
        check = link_check(link, delay_ms)
        if check:
            log(f"bench: network: link check: {check['bytes'] / 1e6:.2f} MB in {check['one_s']:.2f} s alone "
                f"(model {check['model_one_s']:.2f} s), two at once {check['two_s'][0]:.2f} / {check['two_s'][1]:.2f} s "
                f"(model {check['model_two_s']:.2f} s)")
        bench = NetBench(playwright, browser_choice.launch_options(playwright), servers, meter)
        visits = PROFILE["net_visits"]
        raw: dict[str, list] = {f"{kind}_{host}": [] for kind, host in visits}
        for rep in range(reps):
            for kind, host in visits if rep % 2 == 0 else visits[::-1]:
                raw[f"{kind}_{host}"].append(getattr(bench, kind)(host))
            said = []
            for key, rows in raw.items():
                row = rows[-1]
                figure = row.get("ready", row.get("on_screen", row.get("start_to_board")))
                said.append(f"{key} {secs(figure)}")
            log(f"bench: network rep {rep + 1}/{reps}: " + ", ".join(said))
        elapsed = time.monotonic() - started
    finally:
        for server in servers.values():
            server.shutdown()
            server.server_close()
    conditions = {"mbit": mbit, "delay_ms": delay_ms, "chunk_bytes": link.chunk, "gzip_level": netsim.GZIP_LEVEL,
                  "gzip_types": sorted(netsim.GZIP_TYPES), "stray_bytes": meter.stray_bytes}
    summary = summarize_network(raw)
    summary["budgets"] = {name.replace("{net}", net_label(mbit, delay_ms)): verdict for name, verdict in summary["budgets"].items()}
    return {"conditions": conditions, "reps": reps, "seconds": elapsed, "link_check": check, "raw": raw, "summary": summary}


def summarize_network(raw: dict) -> dict:
    def col(key: str, get) -> float | None:
        return median([v for v in (get(row) for row in raw.get(key, [])) if v is not None])

    s: dict = {}
    for host in HOSTS:
        s[f"bare_{host}_ready"] = col(f"bare_{host}", lambda r: r["ready"])
        s[f"bare_{host}_bytes"] = col(f"bare_{host}", lambda r: r["bytes"]["bytes"])
        s[f"bare_worker_{host}_ready"] = col(f"bare_worker_{host}", lambda r: r["ready"])
        s[f"app_{host}_board"] = col(f"app_{host}", lambda r: r["board"])
        s[f"app_{host}_ready"] = col(f"app_{host}", lambda r: r["ready"])
        s[f"app_{host}_bytes_page"] = col(f"app_{host}", lambda r: r["bytes"]["page"]["bytes"])
        s[f"app_{host}_bytes_precache"] = col(f"app_{host}", lambda r: r["bytes"]["service_worker"]["bytes"])
        s[f"app_{host}_bytes_precache_before_ready"] = col(
            f"app_{host}", lambda r: r["bytes"]["service_worker_before_ready"]["bytes"])
        s[f"app_{host}_bytes_all"] = col(f"app_{host}", lambda r: r["bytes"]["bytes"])
        s[f"app_{host}_sw_activated"] = col(f"app_{host}", lambda r: r["service_worker_activated"])
        s[f"app_{host}_sw_missing"] = sum(r["service_worker_activated"] is None for r in raw.get(f"app_{host}", []))
        s[f"home_{host}_list"] = col(f"home_{host}", lambda r: r["on_screen"])
        s[f"setup_{host}_form"] = col(f"setup_{host}", lambda r: r["on_screen"])
        s[f"embed_{host}_poster"] = col(f"embed_{host}", lambda r: r["poster_s"] * 1000)
        s[f"embed_{host}_poster_bytes"] = col(f"embed_{host}", lambda r: r["poster_bytes"])
        s[f"embed_{host}_start_to_board"] = col(f"embed_{host}", lambda r: r["start_to_board"])
        s[f"embed_{host}_tap"] = col(f"embed_{host}", lambda r: r["tap"])
        s[f"embed_{host}_bytes_after_start"] = col(f"embed_{host}", lambda r: r["bytes_after_start"])
        s[f"embed_{host}_own_process"] = all(r["own_process"] for r in raw.get(f"embed_{host}", [])) or None
        s[f"app_{host}_timeline"] = median_timeline([r.get("timeline") for r in raw.get(f"app_{host}", [])])
    s["elsewhere"] = sorted({url for rows in raw.values() for row in rows for url in row["elsewhere"]})
    s["ratio_app_plain_vs_bare_gzip"] = ratio(s["app_plain_ready"], s["bare_gzip_ready"])
    s["ratio_app_gzip_vs_bare_gzip"] = ratio(s["app_gzip_ready"], s["bare_gzip_ready"])
    s["ratio_app_plain_vs_bare_plain"] = ratio(s["app_plain_ready"], s["bare_plain_ready"])
    s["ratio_app_plain_vs_bare_worker_gzip"] = ratio(s["app_plain_ready"], s["bare_worker_gzip_ready"])
    s["ratio_app_gzip_vs_bare_worker_gzip"] = ratio(s["app_gzip_ready"], s["bare_worker_gzip_ready"])
    if PROFILE is PROFILES["phone"]:
        s["budgets"] = {
            f"phone, {{net}}: app ready (plain host) <= {PHONE_VS_BARE} x bare ready (compressing host)":
                _check(s["ratio_app_plain_vs_bare_gzip"], PHONE_VS_BARE),
            f"phone, {{net}}: app ready (compressing host) <= {PHONE_VS_BARE} x bare ready (compressing host)":
                _check(s["ratio_app_gzip_vs_bare_gzip"], PHONE_VS_BARE),
            f"phone, {{net}}: app ready (plain host) <= {PHONE_VS_BARE} x bare in a worker ready (compressing host)":
                _check(s["ratio_app_plain_vs_bare_worker_gzip"], PHONE_VS_BARE),
            f"phone, {{net}}: app first visit (plain host), bytes in all <= {PHONE_BYTES / 1e6:g} MB":
                _check(s["app_plain_bytes_all"], PHONE_BYTES),
            f"phone, {{net}}: app first visit (compressing host), bytes in all <= {PHONE_BYTES / 1e6:g} MB":
                _check(s["app_gzip_bytes_all"], PHONE_BYTES),
        }
        return s
    on_screen = [s["home_plain_list"], s["setup_plain_form"]]
    s["budgets"] = {
        f"network: app ready (plain host) <= {NET_VS_BARE_GZIP} x bare ready (compressing host)":
            _check(s["ratio_app_plain_vs_bare_gzip"], NET_VS_BARE_GZIP),
        f"network: app ready (plain host) <= {NET_VS_BARE_PLAIN} x bare ready (plain host)":
            _check(s["ratio_app_plain_vs_bare_plain"], NET_VS_BARE_PLAIN),
        f"network: app first visit (plain host), bytes in all <= {NET_BYTES / 1e6:g} MB":
            _check(s["app_plain_bytes_all"], NET_BYTES),
        f"network: home list and setup form on screen (plain host) <= {NET_ON_SCREEN_MS / 1000:g} s":
            _check(None if None in on_screen else max(on_screen), NET_ON_SCREEN_MS),
    }
    return s


def median_timeline(rows: list) -> dict | None:
    """The median of each step and of each file's times over the visits."""
    rows = [r for r in rows if r]
    if not rows:
        return None
    steps = {label: median([r["steps"][label] for r in rows if r["steps"].get(label) is not None]) for label in rows[-1]["steps"]}
    files = []
    for f in rows[-1]["files"]:
        same = [g for r in rows for g in r["files"] if g["path"] == f["path"]]
        files.append({"path": f["path"], "bytes": median([g["bytes"] for g in same]),
                      "requested": median([g["requested"] for g in same]),
                      "done": median([g["done"] for g in same if g["done"] is not None])})
    return {"steps": steps, "files": sorted(files, key=lambda f: f["requested"])}


def timeline_table(t: dict | None, host: str) -> list[str]:
    if not t:
        return []
    lines = ["", f"First visit step by step ({host} host, medians, ms since navigation started):", "",
             "| file or step | bytes | requested | done |", "| --- | --- | --- | --- |"]
    lines += [f"| {f['path']} | {kb(f['bytes'])} | {ms(f['requested'])} | {ms(f['done'])} |" for f in t["files"]]
    lines += [f"| *{label}* | | | {ms(value)} |" for label, value in t["steps"].items()]
    return lines


def net_label(mbit: float, delay_ms: float) -> str:
    return f"{mbit:g} Mbit/s, {delay_ms:g} ms" if mbit else f"no bandwidth limit, {delay_ms:g} ms"


def network_table(net: dict) -> list[str]:
    s, c, check = net["summary"], net["conditions"], net["link_check"]
    link = f"{c['mbit']:g} Mbit/s" if c["mbit"] else "no bandwidth limit"
    lines = [f"| first visit, {net_label(c['mbit'], c['delay_ms'])} | plain host | compressing host |", "| --- | --- | --- |"]

    def row(label: str, key: str, fmt) -> None:
        plain, gzip = s.get(key.format(host="plain")), s.get(key.format(host="gzip"))
        if plain is not None or gzip is not None:
            lines.append(f"| {label} | {'–' if plain is None else fmt(plain)} | {'–' if gzip is None else fmt(gzip)} |")

    row("bare Pyodide: navigation -> loadPyodide() resolved", "bare_{host}_ready", secs)
    row("bare Pyodide: bytes sent", "bare_{host}_bytes", kb)
    row("bare Pyodide in a worker: navigation -> loadPyodide() resolved", "bare_worker_{host}_ready", secs)
    row("app: navigation -> board drawn", "app_{host}_board", secs)
    row("app: navigation -> ready", "app_{host}_ready", secs)
    row("app: bytes sent for the page and its Python worker (to ready)", "app_{host}_bytes_page", kb)
    row("app: bytes sent for the service worker (sw.js, precache)", "app_{host}_bytes_precache", kb)
    row("app: … of which sent before ready, sharing the link", "app_{host}_bytes_precache_before_ready", kb)
    row("app: bytes sent in all", "app_{host}_bytes_all", kb)
    row("app: navigation -> service worker activated", "app_{host}_sw_activated", secs)
    row("home page: navigation -> game list on screen", "home_{host}_list", secs)
    row("setup page: navigation -> setup form on screen", "setup_{host}_form", secs)
    row("embed in a blog post: navigation -> poster with Start", "embed_{host}_poster", secs)
    row("embed: bytes sent for the host page and the poster", "embed_{host}_poster_bytes", kb)
    row("embed: Start -> a board that takes moves", "embed_{host}_start_to_board", secs)
    row("embed: bytes sent after Start", "embed_{host}_bytes_after_start", kb)
    row("embed: then one tap -> the move shown", "embed_{host}_tap", ms)
    fmt = lambda r: "–" if r is None else f"{r:.2f}"  # noqa: E731
    if s.get("bare_plain_ready") is not None:
        lines.append(f"| app ready on the plain host ÷ bare ready on this host | {fmt(s['ratio_app_plain_vs_bare_plain'])} | "
                     f"{fmt(s['ratio_app_plain_vs_bare_gzip'])} |")
    else:
        lines.append(f"| app ready on this host ÷ bare ready on the compressing host | {fmt(s['ratio_app_plain_vs_bare_gzip'])} | "
                     f"{fmt(s['ratio_app_gzip_vs_bare_gzip'])} |")
        if s.get("bare_worker_gzip_ready") is not None:
            lines.append(f"| app ready on this host ÷ bare in a worker ready on the compressing host | "
                         f"{fmt(s['ratio_app_plain_vs_bare_worker_gzip'])} | {fmt(s['ratio_app_gzip_vs_bare_worker_gzip'])} |")
    conditions = (f"Network: one link of {link} shared by every connection, {c['delay_ms']:g} ms before each "
                  f"response; plain host (files as they are) and compressing host (gzip level {c['gzip_level']}, "
                  f"like a CDN); bytes are what the server sent (headers and bodies); "
                  f"{net['reps']} fresh visit{'s' if net['reps'] != 1 else ''} of each, medians; {net['seconds']:.0f} s in all.")
    if check:
        conditions += (f" Link check: {check['bytes'] / 1e6:.2f} MB took {check['one_s']:.2f} s alone "
                       f"(model {check['model_one_s']:.2f} s), {check['two_s'][1]:.2f} s two at once "
                       f"(model {check['model_two_s']:.2f} s).")
    missing = s["app_plain_sw_missing"] + s["app_gzip_sw_missing"]
    if missing:
        conditions += f" The service worker did not activate in {missing} visit(s)."
    if s.get("embed_gzip_own_process") is False:
        conditions += " The embed's frame shared the host page's process (slowed with it)."
    if s["elsewhere"]:
        conditions += f" WARNING: {len(s['elsewhere'])} request(s) went past the link: {', '.join(s['elsewhere'][:3])}."
    host = "plain" if s.get("app_plain_timeline") else "gzip"
    return ["", conditions, "", *lines, *timeline_table(s.get(f"app_{host}_timeline"), host)]


# -- the run ------------------------------------------------------------------------


def unpack_bare_pyodide(folder: Path) -> Path:
    """The pinned npm package's own files (BARE_FILES), as they are, into `folder`."""
    with tarfile.open(build.pyodide_tarball()) as tar:
        for name in BARE_FILES:
            (folder / name).write_bytes(tar.extractfile(f"package/{name}").read())  # type: ignore[union-attr]
    return folder


def run(reps: int, seed: int, dist: Path = build.DIST, log=print, only: str | None = None,
        net_reps: int = NET_REPS, networks: list[tuple[float, float]] | None = None,
        against: Path | None = None, games: int = 1) -> dict:
    """One run in the current PROFILE. The phone profile times the moves (with
    the machine's floor and a fresh page's first game) and the first visits
    over each of its networks; the 127.0.0.1 start-up and the computer's moves
    (both in the worker, which Chromium does not slow) are the desktop's."""
    result: dict = {"only": only, "profile": "phone" if PROFILE is PROFILES["phone"] else "desktop"}
    networks = networks or PROFILE["networks"]
    with tempfile.TemporaryDirectory(prefix="bench-pyodide-") as tmp:
        mounts = {BARE_MOUNT: unpack_bare_pyodide(Path(tmp)), "/_bench/": PAGES}  # longest prefix first
        with sync_playwright() as p:
            browser = p.chromium.launch(**browser_choice.launch_options(p))
            result["machine"] = machine(browser.version)
            if only == "moves" or (only is None and result["profile"] == "phone"):
                result["moves"] = run_moves(browser, seed, dist, log, against, games if only else MOVE_GAMES)
            elif only != "network":
                result.update(run_local(browser, reps, seed, dist, mounts, log))
            if only not in ("local", "moves"):
                nets = [run_network(p, dist, mounts, net_reps, mbit, delay_ms, log) for mbit, delay_ms in networks]
                result["network"] = nets[0]
                if len(nets) > 1:
                    result["networks"] = nets
            browser.close()
    result["machine"]["load_average_end"] = os.getloadavg() if hasattr(os, "getloadavg") else None
    per_game = result.get("moves", {}).get("summary", {}).get("moves_per_game", {})
    moves_budgets = {f"{result['profile']}: move latency p95 <= {MOVE_P95_MS} ms: {name}": g["pass"] for name, g in per_game.items()}
    moves_budgets.update({f"{result['profile']}: work until painted p95 <= {MOVE_P95_MS} ms: {name}": g["painted_pass"]
                          for name, g in per_game.items()})
    result["budgets"] = {**result.get("summary", {}).get("budgets", {}), **moves_budgets,
                         **{k: v for net in result.get("networks", [result.get("network", {})])
                            for k, v in net.get("summary", {}).get("budgets", {}).items()}}
    return result


def run_local(browser, reps: int, seed: int, dist: Path, mounts: dict[str, Path], log=print) -> dict:
    httpd = build.make_server(dist, 0, quiet=True, mounts=mounts)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    port = httpd.server_address[1]
    results: dict = {"bare": [], "app": [], "embed_same_origin": [], "embed_cross_site": []}
    try:
        bench = Bench(browser, f"http://127.0.0.1:{port}/", f"http://localhost:{port}/")
        for rep in range(reps):
            order = ["bare", "app"] if rep % 2 == 0 else ["app", "bare"]
            for name in order:
                results[name].append(getattr(bench, name)())
            results["embed_same_origin"].append(bench.embed(cross=False))
            results["embed_cross_site"].append(bench.embed(cross=True))
            b, a = results["bare"][-1], results["app"][-1]
            log(f"bench: rep {rep + 1}/{reps}: bare {b['first']['load_ms']:.0f}/{b['repeat']['load_ms']:.0f} ms, "
                f"app {a['first']['ready']:.0f}/{a['repeat']['ready']:.0f} ms (first/repeat)")
        log("bench: the machine's floor for a click…")
        results["floor"] = bench.floor()
        log("bench: playing whole games…")
        results["moves"] = bench.moves(seed)
        log("bench: a fresh page's first game, clicked at once…")
        results["cold"] = bench.cold_game(seed)
        log("bench: computer moves…")
        results["computer"] = bench.computer(seed)
    finally:
        httpd.shutdown()
        httpd.server_close()
    return {"reps": reps, "raw": results, "summary": summarize(results)}


def run_moves(browser, seed: int, dist: Path, log=print, against: Path | None = None, games: int = 1) -> dict:
    """Move latency alone (--only moves). With `against` (another build's dist/),
    both builds are served side by side and played in one browser, game by game,
    the order alternating, `games` whole games of each set per build, so a
    busy machine slows both alike: compare the two within the run."""
    builds = {"this": dist, **({"against": against} if against else {})}
    servers = {}
    for key, folder in builds.items():
        servers[key] = build.make_server(folder, 0, quiet=True, mounts={"/_bench/": PAGES})
        threading.Thread(target=servers[key].serve_forever, daemon=True).start()
    raw: dict = {key: {} for key in builds}
    try:
        benches = {key: Bench(browser, f"http://127.0.0.1:{httpd.server_address[1]}/", "") for key, httpd in servers.items()}
        log("bench: the machine's floor for a click…")
        floor = benches["this"].floor()
        log("bench: playing whole games…")
        pages = {}
        for key in builds:
            context = benches[key].context()
            pages[key] = open_page(context)
            pages[key].set_default_timeout(LOAD_TIMEOUT_MS)
            pages[key].add_init_script("globalThis.quetTimings = true")
        turn = 0
        for i, (game_id, options) in enumerate(MOVE_SETS):
            name = move_set_name(game_id, options)
            for rep in range(games):
                order = list(builds) if turn % 2 == 0 else list(builds)[::-1]
                turn += 1
                for key in order:
                    look = FIRST_LOOK_MS if not raw[key] else 0  # the page's first game
                    add_game(raw[key], name, benches[key].game(pages[key], game_id, options, seed + i + 1000 * rep, look))
        for page in pages.values():
            page.context.close()
        log("bench: a fresh page's first game, clicked at once…")
        cold = benches["this"].cold_game(seed)
    finally:
        for httpd in servers.values():
            httpd.shutdown()
            httpd.server_close()
    result = {"raw": raw["this"], "floor": floor, "cold": cold,
              "summary": {"moves_per_game": {g: moves_summary(v) for g, v in raw["this"].items()}, "floor": floor_summary(floor),
                          "cold": floor_summary(cold)}}
    if against:
        result["against"] = {"dist": str(against), "raw": raw["against"],
                             "summary": {"moves_per_game": {g: moves_summary(v) for g, v in raw["against"].items()}}}
    return result


def summarize(r: dict) -> dict:
    def col(rows, visit, key):
        return [row[visit][key] for row in rows if row[visit].get(key) is not None]

    s: dict = {
        "bare_first_load": median(col(r["bare"], "first", "load_ms")),
        "bare_repeat_load": median(col(r["bare"], "repeat", "load_ms")),
        "bare_first_ready": median(col(r["bare"], "first", "ready_ms")),
        "bare_repeat_ready": median(col(r["bare"], "repeat", "ready_ms")),
        "app_first_ready": median(col(r["app"], "first", "ready")),
        "app_repeat_ready": median(col(r["app"], "repeat", "ready")),
        "app_first_fcp": median(col(r["app"], "first", "first_contentful_paint")),
        "app_repeat_fcp": median(col(r["app"], "repeat", "first_contentful_paint")),
        "app_first_fp": median(col(r["app"], "first", "first_paint")),
        "app_first_loading": median(col(r["app"], "first", "loading")),
        "app_repeat_loading": median(col(r["app"], "repeat", "loading")),
        "app_repeat_restored": [bool((row["repeat"].get("worker") or {}).get("restored")) for row in r["app"]],
    }
    for where in ("embed_same_origin", "embed_cross_site"):
        s[where + "_blocking"] = median([x["blocking_ms"] for x in r[where]])
        s[where + "_long_tasks"] = median([x["long_task_ms"] for x in r[where]])
        s[where + "_longest"] = median([x["longest_ms"] for x in r[where]])
    dom = [x for game in r["moves"].values() for x in game["dom"]]
    frame = [x for game in r["moves"].values() for x in game["frame"]]
    s["moves_timed"] = len(dom)
    s["floor"] = floor_summary(r.get("floor", []))
    s["cold"] = floor_summary(r.get("cold", []))
    s["move_dom_median"], s["move_dom_p95"] = median(dom), p95(dom)
    s["move_frame_median"], s["move_frame_p95"] = median(frame), p95(frame)
    s["moves_per_game"] = {g: moves_summary(v) for g, v in r["moves"].items()}
    bytes_rows = [row["first"]["bytes"] for row in r["app"]]
    s["bytes_pyodide"] = median([b["pyodide"] for b in bytes_rows])
    s["bytes_own"] = median([b["own"] for b in bytes_rows])
    s["bytes_own_files"] = bytes_rows[-1]["files"] if bytes_rows else {}
    s["computer"] = r["computer"]

    s["ratio_repeat"] = ratio(s["app_repeat_ready"], s["bare_repeat_load"])
    s["ratio_first"] = ratio(s["app_first_ready"], s["bare_first_load"])
    s["budgets"] = {
        "repeat ready <= 1/2 bare repeat loadPyodide()": _check(s["ratio_repeat"], REPEAT_RATIO),
        f"first ready <= {FIRST_RATIO:g} x bare first loadPyodide()": _check(s["ratio_first"], FIRST_RATIO),
        f"loading state on screen < {LOADING_MS} ms (first and repeat)":
            _check(max(filter(None, [s["app_first_loading"], s["app_repeat_loading"]]), default=None), LOADING_MS, strict=True),
        f"move latency p95 <= {MOVE_P95_MS} ms (click -> board shows it)": _check(s["move_dom_p95"], MOVE_P95_MS),
        f"own files on a first visit < {OWN_BYTES // 1000} kB": _check(s["bytes_own"], OWN_BYTES, strict=True),
        **{f"move latency p95 <= {MOVE_P95_MS} ms: {name}": g["pass"] for name, g in s["moves_per_game"].items()},
    }
    return s


def moves_summary(v: dict) -> dict:
    """A game's click -> board times, and where they went (median, p95): the
    engine's Python, the message both ways with its JSON and the wait for the
    worker and the page, and drawing (web/bridge/engine.js, web/view/gameview.js)."""
    split = v.get("split", [])
    part = lambda key: (median([x[key] for x in split]), p95([x[key] for x in split]))  # noqa: E731
    python, parse, message, draw = part("python"), part("parse"), part("message"), part("draw")
    panels = part("panels") if split and "panels" in split[0] else (None, None)
    page = {key: part(key) for key in ("before", "between", "after")} if split and "before" in split[0] else None
    # the drawing's regions (gameview.js), the costliest first: the mean per move
    regions: dict[str, float] = {}
    for x in split:
        for region, took in x.get("regions", {}).items():
            regions[region] = regions.get(region, 0.0) + took
    regions = {k: round(v / max(1, len(split)), 2) for k, v in sorted(regions.items(), key=lambda kv: -kv[1])}
    return {"moves": v["moves"], "timed": len(v["dom"]), "median": median(v["dom"]), "p95": p95(v["dom"]),
            "frame_p95": p95(v["frame"]), "painted": (median(v.get("painted", [])), p95(v.get("painted", []))),
            "painted_pass": _check(p95(v.get("painted", [])), MOVE_P95_MS), "panels": panels, "python": python, "json": parse, "message": message, "draw": draw, "regions": regions, "page": page,
            "ended": v["ended"], "pass": _check(p95(v["dom"]), MOVE_P95_MS)}


def floor_summary(clicks: list[float]) -> dict:
    return {"clicks": len(clicks), "median": median(clicks), "p95": p95(clicks)}


def moves_table(s: dict, against: dict | None = None) -> list[str]:
    pair = lambda x: "–" if x[0] is None else f"{x[0]:.1f} / {x[1]:.1f}"  # noqa: E731
    lines = ["", "| game (moves timed) | click -> board, median / p95 | work until painted, median / p95 | engine (Python) | worker's JSON | "
             "message and waits | drawing | panels after | next frame p95 | budget (board / painted) |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name, g in s["moves_per_game"].items():
        painted = g.get("painted", (None, None))
        lines.append(f"| {name} ({g['timed']}) | {ms(g['median'])} / {ms(g['p95'])} | {pair(painted)} | {pair(g['python'])} | {pair(g['json'])} | "
                     f"{pair(g['message'])} | {pair(g['draw'])} | {pair(g.get('panels', (None, None)))} | {ms(g['frame_p95'])} | "
                     f"{g['pass']} / {g.get('painted_pass', '–')} |")
    lines.append("")
    lines.append("Parts in ms, median / p95 of each part over the same moves (so they need not add up to the total's p95). "
                 "*Click -> board*: from the click to the board holding the new move (the game view's data-ply) with "
                 "<html data-engine=ready> (the board drawn in the document). *Work until painted*: that, plus the main thread's work in the frame that paints it "
                 "(other callbacks of that frame, style, layout, paint), without the wait for the frame. *Panels after*: the "
                 "panels beside the board drawn after the board (gameview.js's \"draw panels\"), where they are.")
    floor = s.get("floor")
    if floor and floor["clicks"]:
        lines.append(f"The machine's floor, the same timing on a page whose worker answers at once and draws one line of text "
                     f"(bench_pages/floor.html, {floor['clicks']} clicks): {ms(floor['median'])} / {ms(floor['p95'])} (median / p95).")
    cold = s.get("cold")
    if cold and cold["clicks"]:
        lines.append(f"Each page's first game waits {FIRST_LOOK_MS / 1000:g} s after the page is ready before its first click, as a person "
                     f"looks at the board. A fresh page's first game clicked at once instead ({move_set_name(*MOVE_SETS[0])}, a first "
                     f"visit, {cold['clicks']} moves): {ms(cold['median'])} / {ms(cold['p95'])} (median / p95), not in the rows above.")
    lines += ["", "| game | the page before the request / between answer and drawing / after drawing | drawing by region, mean ms a move |", "| --- | --- | --- |"]
    for name, g in s["moves_per_game"].items():
        page = g.get("page")
        around = " · ".join(pair(page[k]) for k in ("before", "between", "after")) if page else "–"
        lines.append(f"| {name} | {around} | " + ", ".join(f"{k} {v:.1f}" for k, v in list(g.get("regions", {}).items())[:5]) + " |")
    if against:
        lines += ["", "Side by side with the build in " + against["dist"] + " (the same games, in the same browser, alternating):", "",
                  "| game | that build: median / p95 (drawing) | this build: median / p95 (drawing) | p95 ratio | work until painted: that build / this build |",
                  "| --- | --- | --- | --- | --- |"]
        for name, g in s["moves_per_game"].items():
            o = against["summary"]["moves_per_game"].get(name)
            if not o:
                continue
            r = g["p95"] / o["p95"] if g["p95"] and o["p95"] else None
            lines.append(f"| {name} | {ms(o['median'])} / {ms(o['p95'])} ({pair(o['draw'])}) | {ms(g['median'])} / {ms(g['p95'])} ({pair(g['draw'])}) | "
                         f"{'–' if r is None else f'{r:.2f}'} | {pair(o.get('painted', (None, None)))} / {pair(g.get('painted', (None, None)))} |")
    return lines


def _check(value: float | None, limit: float, strict: bool = False) -> str:
    if value is None:
        return "NOT MEASURED"
    return "PASS" if (value < limit if strict else value <= limit) else "MISS"


def table(result: dict) -> str:
    m = result["machine"]
    lines: list[str] = []
    s = result.get("summary")
    if s:
        rows = [
            ("bare Pyodide: loadPyodide() first visit", ms(s["bare_first_load"]), ""),
            ("bare Pyodide: loadPyodide() repeat visit", ms(s["bare_repeat_load"]), ""),
            ("app: navigation -> ready, first visit", ms(s["app_first_ready"]), f"{s['ratio_first']:.2f} x bare" if s["ratio_first"] else ""),
            ("app: navigation -> ready, repeat visit", ms(s["app_repeat_ready"]), f"{s['ratio_repeat']:.2f} x bare" if s["ratio_repeat"] else ""),
            ("app: first contentful paint (first / repeat)", f"{ms(s['app_first_fcp'])} / {ms(s['app_repeat_fcp'])}", ""),
            ("app: loading state on screen (first / repeat)", f"{ms(s['app_first_loading'])} / {ms(s['app_repeat_loading'])}", ""),
            ("embedded, same-origin host: blocking time (long tasks)", f"{ms(s['embed_same_origin_blocking'])} ({ms(s['embed_same_origin_long_tasks'])})",
             f"longest {ms(s['embed_same_origin_longest'])}"),
            ("embedded, cross-site host: blocking time (long tasks)", f"{ms(s['embed_cross_site_blocking'])} ({ms(s['embed_cross_site_long_tasks'])})",
             f"longest {ms(s['embed_cross_site_longest'])}"),
            (f"move: click -> board shows it, median / p95 ({s['moves_timed']} moves)",
             f"{ms(s['move_dom_median'])} / {ms(s['move_dom_p95'])}", ""),
            ("move: click -> next frame, median / p95", f"{ms(s['move_frame_median'])} / {ms(s['move_frame_p95'])}",
             "clicks start a frame, so >= 1 frame"),
            ("first visit transfers: Pyodide / our own files", f"{kb(s['bytes_pyodide'])} / {kb(s['bytes_own'])}", "no HTTP compression"),
        ]
        lines += ["| measure (127.0.0.1) | median | note |", "| --- | --- | --- |"]
        lines += [f"| {a} | {b} | {c} |" for a, b, c in rows]
    if result.get("moves"):
        lines += moves_table(result["moves"]["summary"], result["moves"].get("against"))
    for net in result.get("networks", [result["network"]] if result.get("network") else []):
        lines += network_table(net)
    lines += ["", "| budget | result |", "| --- | --- |"]
    lines += [f"| {name} | {verdict} |" for name, verdict in result["budgets"].items()]
    if s:
        lines += ["", "| computer move (in the worker) | random | greedy | strong (1 s budget) |", "| --- | --- | --- | --- |"]
        for game_id, levels in s["computer"].items():
            cells = [f"{ms(levels[lv]['median_ms'])} (max {ms(levels[lv]['max_ms'])})" for lv in quetgames.players.LEVELS]
            lines.append(f"| {game_id} | " + " | ".join(cells) + " |")
        lines += moves_table(s)
    load, load_end = m.get("load_average_start"), m.get("load_average_end")
    busy = f"; load average {load[0]:.1f} at the start" if load else ""
    busy += f", {load_end[0]:.1f} at the end" if load and load_end else ""
    reps = [f"{result['reps']} repetition{'s' * (result['reps'] != 1)} on 127.0.0.1"] if s else []
    reps += [f"{result['network']['reps']} over the network"] if result.get("network") else []
    lines += ["", f"Machine: {m['cpu']}, {m['cores']} cores, {m['browser']}; {', '.join(reps)}, {m['date']}{busy}."]
    if result.get("profile") == "phone":
        lines += ["", "Phone profile: a 390 x 844 touch screen at 3 device pixels a CSS pixel, the page's main thread "
                  f"slowed {PROFILE['cpu']}x (Emulation.setCPUThrottlingRate; Chromium refuses it for workers, so the Python "
                  "worker and V8's compiling threads run at the machine's speed)."]
    lines.append("")
    return "\n".join(lines)


def write_docs(text: str, profile: str = "desktop") -> None:
    """Put `text` between the profile's markers in docs/BENCH.md (the desktop's
    TABLE_START and TABLE_END, or <!-- bench:PROFILE --> and its closing one)."""
    doc = BENCH_MD.read_text()
    opening, closing = (TABLE_START, TABLE_END) if profile == "desktop" else (f"<!-- bench:{profile} -->", f"<!-- /bench:{profile} -->")
    start, end = doc.index(opening) + len(opening), doc.index(closing)
    BENCH_MD.write_text(doc[:start] + "\n" + text.strip() + "\n" + doc[end:])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=5, help="repetitions of each start-up measure on 127.0.0.1 (default 5)")
    parser.add_argument("--net-reps", type=int, default=NET_REPS, help=f"fresh visits of each kind over the network (default {NET_REPS})")
    parser.add_argument("--profile", choices=sorted(PROFILES), default="desktop",
                        help="desktop (default) or phone: a 390 x 844 touch screen, the main thread slowed 4x, "
                             "first visits over 1.6 Mbit/s + 150 ms and 10 Mbit/s + 60 ms (issue 41)")
    parser.add_argument("--mbit", type=float, default=None,
                        help=f"the network's bandwidth in Mbit/s, shared by every connection (default {NET_MBIT:g}; 0: no limit)")
    parser.add_argument("--delay-ms", type=float, default=None,
                        help=f"the network's delay before each response, in ms (default {NET_DELAY_MS:g})")
    parser.add_argument("--only", choices=("local", "network", "moves"),
                        help="run only the 127.0.0.1 measures, only the network ones, or only the moves' latency")
    parser.add_argument("--against", type=Path, default=None,
                        help="with --only moves: another build's dist/ to play side by side with this one (A/B in one browser)")
    parser.add_argument("--games", type=int, default=1, help="with --only moves: whole games of each set per build (default 1)")
    parser.add_argument("--sets", default=None,
                        help="with --only moves: only these move sets, comma-separated game ids (such as convoluted-coprimality,enumeration)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the games played and positions timed")
    parser.add_argument("--json", type=Path, default=None,
                        help=f"where to write the figures (default: {BENCH_JSON.relative_to(ROOT)} for a full run, "
                             ".cache/bench-PART.json with --only, so a partial run never replaces the full run's figures)")
    parser.add_argument("--dist", type=Path, default=build.DIST, help="the built site to measure (default dist/)")
    parser.add_argument("--write-docs", action="store_true", help=f"put the table into {BENCH_MD.relative_to(ROOT)} (a full run only)")
    args = parser.parse_args(argv)
    if args.write_docs and args.only:
        parser.error("--write-docs takes a full run: drop --only")
    global PROFILE
    PROFILE = PROFILES[args.profile]
    networks = None
    if args.mbit is not None or args.delay_ms is not None:
        networks = [(NET_MBIT if args.mbit is None else args.mbit, NET_DELAY_MS if args.delay_ms is None else args.delay_ms)]
    if (args.mbit or 0) < 0 or (args.delay_ms or 0) < 0 or args.net_reps < 1 or args.reps < 1:
        parser.error("--mbit and --delay-ms must be >= 0, --reps and --net-reps >= 1")
    if (args.against or args.games != 1 or args.sets) and args.only != "moves":
        parser.error("--against, --games and --sets go with --only moves")
    if args.sets:
        global MOVE_SETS
        wanted = set(args.sets.split(","))
        MOVE_SETS = [(g, o) for g, o in MOVE_SETS if g in wanted]
    result = run(args.reps, args.seed, args.dist, log=lambda text: print(text, file=sys.stderr, flush=True),
                 only=args.only, net_reps=args.net_reps, networks=networks,
                 against=args.against, games=args.games)
    text = table(result)
    print(text)
    name = "-".join(filter(None, [args.only, "phone" if args.profile == "phone" else None]))
    out = args.json or (ROOT / ".cache" / f"bench-{name}.json" if args.only else BENCH_JSON.with_name(
        "bench.json" if args.profile == "desktop" else f"bench-{args.profile}.json"))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"figures written to {out}", file=sys.stderr)
    if args.write_docs:
        write_docs(text, args.profile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
