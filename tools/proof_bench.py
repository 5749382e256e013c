"""Prime Target's proofs in the browser, at the machine's speed and with the
CPU slowed 4x: the time of each kind of proof, ring by ring (issue 55).

    python build.py bench --only proofs [--centres 12] [--rates 1,4]

Chromium slows only a page's main thread (CDP Emulation.setCPUThrottlingRate
refuses a worker: tools/bench.py), so this bench runs the pinned Pyodide on a
page's main thread, not in the site's worker: a blank page on 127.0.0.1
loads Pyodide from .cache/pyodide-<version>/ (the files the build ships),
writes py/quetgames into its file system, and times, for default two-seat
games from seeded random centres (random rings before the one timed), with
every kept proof forgotten first:

After an untimed warm-up (one centre's first ring and second ring, as a
page has run its analysis before Practise your mistakes), it times:

- *ring 1 exercise*: the 256 answers of a first ring proved (what Practise
  your mistakes proves for a first-ring exercise's whole list: puzzles'
  prove_position), against mistakes.PROOF_SECONDS;
- *ring k margin*: the largest margin the seat can force and its ring
  (`proved`, what strong and Hint play), for rings 2, 3 and 4; ring 1 is
  the table, read and not searched;
- *ring k result*: the result alone and a ring that keeps it
  (`proved_result`, what the analysis, puzzles and mistakes ask), ring 2.

Each rate is a fresh page, the rates in turn. Prints a line per kind and
rate (median and largest in ms) and writes .cache/bench-proofs.json.
"""

from __future__ import annotations

import argparse
import http.server
import json
import statistics
import sys
import threading
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "e2e"))

import browser as browser_choice  # noqa: E402  (e2e/browser.py: which Chromium, and its flags)

# Timed inside Pyodide; `centres`, `seed` and `rate` are set before it runs.
TIMING = r"""
import random, sys, time
sys.path.insert(0, "/bench")
import quetgames
from quetgames.players import prime_target as pt
from quetgames.puzzles import prove_position

def forget():
    pt._PROVED.clear(); pt._RESULTS.clear()

def timed(fn):
    forget()
    t = time.perf_counter()
    fn()
    return (time.perf_counter() - t) * 1000

def centre(rng):
    s = quetgames.new_game("prime-target")
    while s.opening:
        s = s.play(rng.choice(s.legal_moves()))
    return s

# untimed first, as on the page, where the analysis has run before: wasm's optimising tier is in
warm = centre(random.Random(-seed))
prove_position(warm, 3 * rate)
pt.proved(warm.play(warm.legal_moves()[0]))
rng = random.Random(seed)
found = {}
for _ in range(centres):
    rings = [centre(rng)]
    for _ in range(3):
        rings.append(rings[-1].play(rng.choice(rings[-1].legal_moves())))
    found.setdefault("ring 1 exercise", []).append(timed(lambda: prove_position(rings[0], 600)))
    for k in (2, 3, 4):
        found.setdefault(f"ring {k} margin", []).append(timed(lambda: pt.proved(rings[k - 1])))
    found.setdefault("ring 2 result", []).append(timed(lambda: pt.proved_result(rings[1])))
found
"""

PAGE = """<!doctype html><meta charset="utf-8"><title>proofs</title>
<script type="module">
import { loadPyodide } from "./pyodide/pyodide.mjs";
window.__proofs = { state: "loading" };
try {
  const pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", location.href).href });
  const files = await (await fetch("./engine.json")).json();
  for (const [path, text] of Object.entries(files)) {
    pyodide.FS.mkdirTree("/bench/" + path.split("/").slice(0, -1).join("/"));
    pyodide.FS.writeFile("/bench/" + path, text);
  }
  const settings = await (await fetch("./settings.json")).json();
  pyodide.globals.set("centres", settings.centres);
  pyodide.globals.set("seed", settings.seed);
  pyodide.globals.set("rate", settings.rate);
  const timing = await (await fetch("./timing.py")).text();
  window.__proofs = { state: "done", found: pyodide.runPython(timing).toJs({ dict_converter: Object.fromEntries }) };
} catch (error) {
  window.__proofs = { state: "failed", message: String(error) };
}
</script>"""


def pyodide_folder() -> Path:
    found = sorted((ROOT / ".cache").glob("pyodide-*[0-9]"))
    folders = [f for f in found if f.is_dir() and (f / "pyodide.mjs").exists()]
    if not folders:
        raise SystemExit("no Pyodide in .cache/: run `python build.py` first")
    return folders[-1]


class Handler(http.server.SimpleHTTPRequestHandler):
    """The bench's page, the engine's files, the settings and the timing script; Pyodide's under pyodide/."""

    files: dict[str, tuple[bytes, str]] = {}
    settings: dict[str, int] = {}
    pyodide: Path = Path()

    def do_GET(self) -> None:  # noqa: N802
        name = self.path.split("?")[0].lstrip("/")
        if name in self.files:
            body, kind = self.files[name]
        elif name.startswith("pyodide/") and (self.pyodide / name[8:]).is_file():
            path = self.pyodide / name[8:]
            body = path.read_bytes()
            kind = {".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json"}.get(
                path.suffix, "application/octet-stream")
        else:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def measure(playwright, base: str, rate: float) -> dict[str, list[float]]:
    Handler.files["settings.json"] = (json.dumps({**Handler.settings, "rate": rate}).encode(), "application/json")
    browser = playwright.chromium.launch(**browser_choice.launch_options(playwright))
    try:
        page = browser.new_page()
        cdp = page.context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
        page.goto(base + "index.html")
        page.wait_for_function("() => window.__proofs.state !== 'loading'", timeout=3_600_000, polling=1000)
        got = page.evaluate("window.__proofs")
        if got["state"] != "done":
            raise SystemExit(f"the bench page failed: {got.get('message')}")
        return got["found"]
    finally:
        browser.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--centres", type=int, default=12)
    parser.add_argument("--seed", type=int, default=55)
    parser.add_argument("--rates", default="1,4")
    parser.add_argument("--json", type=Path, default=ROOT / ".cache" / "bench-proofs.json")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    engine = {str(p.relative_to(ROOT / "py")): p.read_text() for p in (ROOT / "py" / "quetgames").rglob("*.py")}
    Handler.files = {
        "index.html": (PAGE.encode(), "text/html"),
        "engine.json": (json.dumps(engine).encode(), "application/json"),
        "timing.py": (TIMING.encode(), "text/plain"),
    }
    Handler.settings = {"centres": args.centres, "seed": args.seed}
    Handler.pyodide = pyodide_folder()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(Handler))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    result: dict[str, dict[str, dict[str, float]]] = {}
    try:
        with sync_playwright() as p:
            for rate in (float(r) for r in args.rates.split(",")):
                found = measure(p, base, rate)
                for kind, times in found.items():
                    row = {"median_ms": round(statistics.median(times), 1), "max_ms": round(max(times), 1), "n": len(times)}
                    result.setdefault(kind, {})[f"{rate:g}x"] = row
                    print(f"{kind}, CPU {rate:g}x: median {row['median_ms']:.0f} ms, largest {row['max_ms']:.0f} ms "
                          f"({row['n']} centres)", flush=True)
    finally:
        server.shutdown()
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"centres": args.centres, "seed": args.seed, "pyodide": Handler.pyodide.name,
                                     "found": result}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
