"""Lighthouse's verdict on every kind of page, as web engineers measure it.

    python build.py bench --only lighthouse [--write-docs] [--pages home,game-prime-target-over,...]

Lighthouse 12.2.3 (pinned in tools/lighthouse/package.json and its lock; npm
ci'd there on first use, never by the tests, never into dist/) runs from the
command line with its default mobile profile: a Moto G Power's 412 × 823
screen, simulated slow 4G (150 ms, 1.6 Mbit/s) and a CPU slowed 4×, a fresh
profile each run. The site is served from dist/ by a compressing host on
127.0.0.1 (tools/netsim.py with gzip on and no limit: Lighthouse throttles by
simulation), as a real host would serve it.

Pages: the home page; for each of the five games a link to a finished game
and to one in progress, each with the poster the share panel hands out (made
here by the site itself, in a browser with the engine up); the day's puzzle;
a lesson; and the embed of a finished game, as its dialog writes it.

Printed: performance, LCP, CLS and TBT per page against the issue's budgets
(performance ≥ 95, LCP ≤ 2.5 s, CLS ≤ 0.1, TBT ≤ 200 ms), and the other
three categories. Written: docs/lighthouse.json (every figure, the run's date
and machine), and with --write-docs the table into docs/BENCH.md between its
lighthouse markers.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import platform
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "py"))
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "e2e"))

import build  # noqa: E402
import netsim  # noqa: E402
import quetgames  # noqa: E402
from harness import played  # noqa: E402  (e2e/harness.py: a game after random turns)

TOOL = ROOT / "tools" / "lighthouse"
CLI = TOOL / "node_modules" / "lighthouse" / "cli" / "index.js"
OUT_JSON = ROOT / "docs" / "lighthouse.json"
BENCH_MD = ROOT / "docs" / "BENCH.md"
MARKS = ("<!-- lighthouse -->", "<!-- /lighthouse -->")
BUDGET = {"performance": 95, "lcp_ms": 2500, "cls": 0.1, "tbt_ms": 200}
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync"


def ensure_lighthouse() -> None:
    """npm ci the pinned Lighthouse into tools/lighthouse/, once per lock file."""
    lock = TOOL / "package-lock.json"
    stamp = TOOL / "node_modules" / ".quet-lock-sha256"
    digest = hashlib.sha256(lock.read_bytes()).hexdigest()
    if CLI.exists() and stamp.exists() and stamp.read_text() == digest:
        return
    subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=TOOL, check=True)
    stamp.write_text(digest)


def chromium() -> str:
    for path in (os.environ.get("CHROMIUM_PATH"), "/usr/bin/chromium", "/usr/bin/chromium-browser"):
        if path and Path(path).exists():
            return path
    raise SystemExit("lighthouse bench: no Chromium found (python build.py test installs Debian's)")


def game_records(seed: int) -> dict[str, str]:
    """A finished game and one in progress of each game, by page name."""
    records = {}
    for game in quetgames.GAMES:
        records[f"game-{game}-over"] = played(game, 10_000, seed).record
        records[f"game-{game}-playing"] = played(game, 4, seed).record
    return records


def links_with_posters(base: str, records: dict[str, str]) -> dict[str, str]:
    """The links the site's share panel hands out for `records` (with their
    posters), and the embed of the first finished game, made by the site."""
    from playwright.sync_api import sync_playwright

    links = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=CHROME_FLAGS.split()[1:])
        page = browser.new_page(viewport={"width": 412, "height": 823})
        for name, record in records.items():
            page.goto(f"{base}index.html#{record}")
            page.wait_for_selector("html[data-engine=ready]", timeout=120_000)
            page.wait_for_function("() => (document.getElementById('share-link')?.value ?? '').includes('!poster.')",
                                   timeout=30_000)
            links[name] = page.locator("#share-link").input_value()
            if name == "game-prime-target-over":
                plies = len(quetgames.load(record).history)
                links["embed"] = page.evaluate("""async ([record, plies]) => {
                  const { embedURL } = await import(new URL('share/embed-snippet.js', location.href).href);
                  const { makePoster } = await import(new URL('share/poster.js', location.href).href);
                  const { engine } = await import(new URL('bridge/engine.js', location.href).href);
                  const at = await engine.request('at', { record, ply: plies });
                  return embedURL(record, { mode: 'replay' }, location.href, await makePoster(at.view, { key: record, ply: plies, plies }));
                }""", [record, plies])
        browser.close()
    return links


def run_lighthouse(url: str, out: Path) -> dict:
    """One Lighthouse run of `url` (default mobile profile): its figures."""
    cmd = ["node", str(CLI), url, "--output=json", f"--output-path={out}", "--quiet",
           f"--chrome-path={chromium()}", f"--chrome-flags={CHROME_FLAGS}",
           "--only-categories=performance,accessibility,best-practices,seo"]
    subprocess.run(cmd, check=True, cwd=ROOT, env={**os.environ, "CHROME_PATH": chromium()})
    report = json.loads(out.read_text())
    audits, categories = report["audits"], report["categories"]
    score = lambda name: round((categories[name]["score"] or 0) * 100)  # noqa: E731
    return {
        "performance": score("performance"), "accessibility": score("accessibility"),
        "best_practices": score("best-practices"), "seo": score("seo"),
        "lcp_ms": round(audits["largest-contentful-paint"]["numericValue"]),
        "fcp_ms": round(audits["first-contentful-paint"]["numericValue"]),
        "cls": round(audits["cumulative-layout-shift"]["numericValue"], 3),
        "tbt_ms": round(audits["total-blocking-time"]["numericValue"]),
        # Lighthouse's own measure of the host's CPU: TBT is the host's blocking
        # scaled by 4, so runs compare only at a like index
        "benchmark_index": round(report.get("environment", {}).get("benchmarkIndex") or 0),
        "lcp_element": (audits.get("largest-contentful-paint-element", {}).get("details", {}).get("items") or [{}])[0]
                       .get("items", [{}])[0].get("node", {}).get("snippet", ""),
    }


def verdict(row: dict) -> str:
    misses = [name for name, ok in (
        ("performance", row["performance"] >= BUDGET["performance"]), ("LCP", row["lcp_ms"] <= BUDGET["lcp_ms"]),
        ("CLS", row["cls"] <= BUDGET["cls"]), ("TBT", row["tbt_ms"] <= BUDGET["tbt_ms"])) if not ok]
    return "PASS" if not misses else "MISS " + ", ".join(misses)


def table(rows: dict[str, dict]) -> str:
    lines = ["| page | performance | LCP | CLS | TBT | a11y / best practices / SEO | budgets |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for name, r in rows.items():
        lines.append(f"| {name} | {r['performance']} | {r['lcp_ms'] / 1000:.1f} s | {r['cls']:.3f} | {r['tbt_ms']} ms "
                     f"| {r['accessibility']} / {r['best_practices']} / {r['seo']} | {verdict(r)} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", default=None, help="only these pages, comma-separated (names as printed)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the games linked")
    parser.add_argument("--dist", type=Path, default=build.DIST)
    parser.add_argument("--write-docs", action="store_true", help=f"put the table into {BENCH_MD.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    ensure_lighthouse()
    server = netsim.make_server(args.dist, link=netsim.Link(0), meter=netsim.Meter(), compress=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    wanted = set(args.pages.split(",")) if args.pages else None
    records = {k: v for k, v in game_records(args.seed).items() if wanted is None or k in wanted or "embed" in wanted}
    links = links_with_posters(base, records) if records else {}
    pages = {"home": base, **{k: v for k, v in links.items() if k != "embed"},
             "puzzle-today": f"{base}index.html#puzzle=today", "lesson": f"{base}index.html#learn=prime-target"}
    if "embed" in links:
        pages["embed"] = links["embed"]
    if wanted:
        pages = {k: v for k, v in pages.items() if k in wanted}
    rows: dict[str, dict] = {}
    load_before = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    with tempfile.TemporaryDirectory() as tmp:
        for name, url in pages.items():
            rows[name] = run_lighthouse(url, Path(tmp) / f"{name}.json")
            r = rows[name]
            print(f"{name}: performance {r['performance']}, LCP {r['lcp_ms']} ms, CLS {r['cls']}, TBT {r['tbt_ms']} ms"
                  f" (host index {r['benchmark_index']})  {verdict(r)}", flush=True)
    server.shutdown()
    print(table(rows))
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    result = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="minutes"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.system()}; load average before {load_before}, after {load}",
        "lighthouse": json.loads((TOOL / "package.json").read_text())["devDependencies"]["lighthouse"],
        "profile": "default mobile (simulated slow 4G, 4x CPU), compressing host on 127.0.0.1",
        "budget": BUDGET, "pages": rows, "urls": pages,
    }
    if not wanted:
        OUT_JSON.write_text(json.dumps(result, indent=1) + "\n")
    if args.write_docs:
        text = BENCH_MD.read_text()
        start, end = text.index(MARKS[0]) + len(MARKS[0]), text.index(MARKS[1])
        block = f"\n{result['date']}, {result['machine']}; Lighthouse {result['lighthouse']}, {result['profile']}.\n\n{table(rows)}\n"
        BENCH_MD.write_text(text[:start] + block + text[end:])
    return 0 if all(verdict(r) == "PASS" for r in rows.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
