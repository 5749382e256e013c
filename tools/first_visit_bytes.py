"""A shared game link's first visit: the bytes the host sends, this build
against another (issue 55 asks for it against 695cdec), from a plain host and
a compressing one.

    python tools/first_visit_bytes.py --against OTHER_DIST [--dist dist]

Each visit is a fresh browser context (empty caches, no service worker) on a
Prime Target link in its ring phase (the bare record, which every build
understands), served from 127.0.0.1 by tools/netsim.py with no limit of its
own; the host counts what it sends (headers and bodies). *ready*: the bytes
sent until <html data-engine=ready>; *all*: until the network has been quiet
for 3 s (the service worker's precache included).
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "e2e"))
sys.path.insert(0, str(ROOT / "py"))

import build  # noqa: E402
import netsim  # noqa: E402
import browser as browser_choice  # noqa: E402  (e2e/browser.py: which Chromium, and its flags)
from harness import played  # noqa: E402


def sent(meter: netsim.Meter) -> int:
    return sum(e.header_bytes + e.body_bytes for e in list(meter.exchanges)) + meter.stray_bytes


def visit(playwright, folder: Path, compress: bool, record: str) -> tuple[int, int, int]:
    meter = netsim.Meter()
    server = netsim.make_server(folder, link=netsim.Link(0), meter=meter, compress=compress)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    browser = playwright.chromium.launch(**browser_choice.launch_options(playwright))
    try:
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        page.goto(f"http://127.0.0.1:{server.server_address[1]}/index.html#{record}")
        page.wait_for_selector("html[data-engine=ready]", timeout=300_000)
        ready = sent(meter)
        start = time.monotonic()
        while meter.quiet_for() < 3.0 and time.monotonic() - start < 120:
            time.sleep(0.2)
        return ready, sent(meter), len(meter.exchanges)
    finally:
        browser.close()
        server.shutdown()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dist", type=Path, default=build.DIST)
    parser.add_argument("--against", type=Path, required=True)
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    record = played("prime-target", 9, 7).record
    print(f"link: #{record}")
    print("| build | host | bytes until ready | bytes in all (quiet 3 s) | requests |")
    print("| --- | --- | --- | --- | --- |")
    with sync_playwright() as p:
        for name, folder in (("this", args.dist), ("other", args.against)):
            for compress in (False, True):
                ready, total, count = visit(p, folder, compress, record)
                print(f"| {name} ({folder}) | {'compressing' if compress else 'plain'} | {ready:,} | {total:,} | {count} |",
                      flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
