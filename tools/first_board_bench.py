"""A shared link on a slow phone: when its board is first on screen, and when
the engine is ready, on a first and a repeat visit, against another build.

    python build.py bench --only first-board [--against OTHER_DIST] [--reps 1]

The phone of issue 53: a 390 × 844 touch screen, the page's main thread slowed
4× (CDP Emulation.setCPUThrottlingRate), and the browser's own slow-4G
throttling (CDP Network.emulateNetworkConditions: 1.6 Mbit/s down, 150 ms
latency), in a fresh context for each first visit; the repeat visit is a
reload in the same context once its service worker is ready (its caches, its
saved games, its service worker).
dist/ is served by a compressing host on 127.0.0.1 (tools/netsim.py, no limit
of its own: the browser throttles). Each game's link is the one its share panel
hands out (with the position's poster), made by this build with the engine up;
a build without posters (--against, say 695cdec's dist/) is given the bare
record, as its share panel would.

Timed from navigation, in the page: *board*, the first frame with a board of
the game on screen (`#board` holding an svg, a curtain or a number list:
drawn from a poster, a kept view or the engine); *ready*, <html data-engine=ready>.
Printed per game and build, with the ratio of this build's ready to the other's.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "e2e"))

import build  # noqa: E402
import netsim  # noqa: E402
import browser as browser_choice  # noqa: E402  (e2e/browser.py: which Chromium, and its flags)
from lighthouse_bench import played  # noqa: E402

VIEWPORT = {"width": 390, "height": 844}
SLOW_4G = {"offline": False, "latency": 150, "downloadThroughput": 1.6e6 / 8, "uploadThroughput": 750e3 / 8}
GAMES = {"prime-target": 9, "convoluted-coprimality": 6, "enumeration": 7, "multiplications": 5, "nonconformity": 3}

# The first frame with a board on screen, and ready, in ms since navigation.
WATCH = """
(() => {
  const seen = (window.__firstBoard = { board: null, ready: null });
  const look = () => {
    if (seen.board == null && document.querySelector('#board svg, #board .curtain, #board .nc-picks, #board .nc-board')) {
      requestAnimationFrame(() => { seen.board ??= performance.now(); });
    }
    if (seen.ready == null && document.documentElement.dataset.engine === 'ready') seen.ready = performance.now();
  };
  new MutationObserver(look).observe(document, { subtree: true, childList: true, attributes: true });
})();
"""


def serve(folder: Path) -> tuple[netsim.Server, str]:
    server = netsim.make_server(folder, link=netsim.Link(0), meter=netsim.Meter(), compress=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def poster_links(playwright, base: str) -> dict[str, str]:
    """Each game's link as this build's share panel hands it out (engine up, no throttling)."""
    browser = playwright.chromium.launch(**browser_choice.launch_options(playwright))
    page = browser.new_page(viewport=VIEWPORT)
    links = {}
    for game, moves in GAMES.items():
        record = played(game, moves, 7).record
        page.goto(f"{base}index.html#{record}")
        page.wait_for_selector("html[data-engine=ready]", timeout=120_000)
        try:
            page.wait_for_function("() => (document.getElementById('share-link')?.value ?? '').includes('!poster.')", timeout=15_000)
            links[game] = page.locator("#share-link").input_value()
        except Exception:  # a build without posters: the bare link
            links[game] = f"{base}index.html#{record}"
    browser.close()
    return links


def visit(playwright, url: str) -> dict:
    browser = playwright.chromium.launch(**browser_choice.launch_options(playwright))
    context = browser.new_context(viewport=VIEWPORT, device_scale_factor=3, is_mobile=True, has_touch=True)
    context.add_init_script(WATCH)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", SLOW_4G)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    result = {}
    for kind in ("first", "repeat"):
        if kind == "first":
            page.goto(url)
        else:
            # A repeat visit comes after the first one has settled: the service
            # worker installed (its precache, ~7 MB over this slow link, done),
            # as a person's next visit would find it. Reloading at once raced
            # that download and gave repeat figures from 0.98 to 2.04 of the
            # other build's in one run, where an A/B that waited gave 0.62-0.67.
            page.evaluate("() => navigator.serviceWorker ? navigator.serviceWorker.ready.then(() => true) : true")
            page.reload()
        page.wait_for_selector("html[data-engine=ready]", timeout=240_000)
        page.wait_for_function("() => window.__firstBoard.board != null", timeout=30_000)
        result[kind] = page.evaluate("window.__firstBoard")
    browser.close()
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", type=Path, default=None, help="another build's dist/ to measure in the same run")
    parser.add_argument("--reps", type=int, default=1)
    parser.add_argument("--dist", type=Path, default=build.DIST)
    parser.add_argument("--json", type=Path, default=ROOT / ".cache" / "bench-first-board.json")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    builds = {"this": args.dist, **({"other": args.against} if args.against else {})}
    rows: dict[str, dict[str, list]] = {}
    with sync_playwright() as p:
        served = {name: serve(folder) for name, folder in builds.items()}
        links = {name: poster_links(p, base) for name, (_, base) in served.items()}
        for rep in range(args.reps):
            for game in GAMES:
                for name in (builds if rep % 2 == 0 else list(builds)[::-1]):
                    got = visit(p, links[name][game])
                    rows.setdefault(f"{game} {name}", {}).setdefault("runs", []).append(got)
                    print(f"{game} {name}: first board {got['first']['board']:.0f} ms, ready {got['first']['ready']:.0f} ms; "
                          f"repeat board {got['repeat']['board']:.0f} ms, ready {got['repeat']['ready']:.0f} ms", flush=True)
        for server, _ in served.values():
            server.shutdown()
    med = lambda runs, kind, what: statistics.median(r[kind][what] for r in runs)  # noqa: E731
    print("\n| game | build | first visit: board | first visit: ready | repeat: board | repeat: ready |")
    print("| --- | --- | --- | --- | --- | --- |")
    summary = {}
    for key, row in rows.items():
        figures = {f"{kind}_{what}": med(row["runs"], kind, what) for kind in ("first", "repeat") for what in ("board", "ready")}
        summary[key] = figures
        game, name = key.rsplit(" ", 1)
        print(f"| {game} | {name} | {figures['first_board'] / 1000:.1f} s | {figures['first_ready'] / 1000:.1f} s "
              f"| {figures['repeat_board'] / 1000:.2f} s | {figures['repeat_ready'] / 1000:.1f} s |")
    if args.against:
        for game in GAMES:
            a, b = summary[f"{game} this"], summary[f"{game} other"]
            print(f"{game}: ready, this / other: first {a['first_ready'] / b['first_ready']:.2f}, repeat {a['repeat_ready'] / b['repeat_ready']:.2f}")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"summary": summary, "links": links, "conditions": {"cpu": 4, **SLOW_4G}}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
