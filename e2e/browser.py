"""Which Chromium the browser tests drive, and how to start it.

Order: Playwright's own Chromium if it is installed, else the system's
(/usr/bin/chromium, Debian's package). Run as a script it prints the choice
and exits 1 when there is none (build.py then installs one).
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

SYSTEM_CHROMIUMS = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
# Chromium's headless shell (Debian's chromium-headless-shell): the same engine
# without the desktop browser around it, and what Playwright itself runs for
# headless tests. A fresh context's Python start took 2.3 s of CPU in it
# against 3.6 s in the full browser (6 starts each, 26 November).
HEADLESS_SHELLS = ("/usr/bin/chromium-headless-shell",)


def playwright_chromium(playwright=None) -> str | None:
    """The path of Playwright's own Chromium, if it has been downloaded."""
    if playwright is None:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            return playwright_chromium(p)
    path = playwright.chromium.executable_path
    return path if path and Path(path).exists() else None


def find_browser(playwright=None) -> tuple[str, str | None] | None:
    """("playwright", None) for Playwright's own build, ("system", path), or None.

    Pass the running Playwright when there is one (it cannot be started twice)."""
    if playwright_chromium(playwright):
        return ("playwright", None)
    for path in (os.environ.get("CHROMIUM_PATH"), *SYSTEM_CHROMIUMS, shutil.which("chromium")):
        if path and Path(path).exists():
            return ("system", path)
    return None


# For the tests that check behaviour, not speed: wasm runs on V8's baseline
# compiler alone (Liftoff). Every fresh context compiles Pyodide's 9.6 MB of
# wasm; the optimising tier-up took 1.4 s of a cold start's 6.3 s of CPU here
# (a trace of one start), and the suite starts Python dozens of times. It
# changes how fast code runs, never what it does. Tests that report figures,
# the benches and the cross-engine smoke set use the browser's defaults and the
# full browser (launch_options(fast=False)).
FAST_FLAGS = ["--js-flags=--liftoff-only"]


def headless_shell() -> str | None:
    """The system's Chromium headless shell, if installed."""
    return next((path for path in HEADLESS_SHELLS if Path(path).exists()), None)


def launch_options(playwright=None, *, fast: bool = False) -> dict:
    """Keyword arguments for `playwright.chromium.launch`; fast: for checking
    behaviour only (FAST_FLAGS, and the headless shell where the browser is the
    system's)."""
    found = find_browser(playwright)
    if found is None:
        raise RuntimeError("no Chromium found: run `python build.py test`, which installs one")
    options: dict = {"headless": True}
    if found[1]:
        options["executable_path"] = (fast and headless_shell()) or found[1]
    args = ["--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--no-first-run", "--disable-quic"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args += ["--no-sandbox", "--disable-gpu"]
    options["args"] = args + (FAST_FLAGS if fast else [])
    return options


if __name__ == "__main__":
    found = find_browser()
    print(found if found else "no Chromium found")
    sys.exit(0 if found else 1)
