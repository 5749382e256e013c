"""How far Prime Target's exact ring search reaches, setting by setting (issue 55).

For two seats at each setting, the ring positions with 1, 2, 3, ... rings
left, from random games (seeded): the time of one proof
(players/prime_target_proof.best_rings, the strong player's and the
analysis's), the slowest and the median of --samples positions, each
stopped at --cap seconds. Also the default centre's proof from its last
4, 5 and 6 numbers (through the first-ring table). One JSON line per row.

    python tools/prime_target_reach.py [--samples 5] [--cap 4]

Runs in CPython or, with the same code, in Pyodide (tools/pyodide_run.mjs).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "py"))

import quetgames  # noqa: E402
from quetgames.players.prime_target import proved  # noqa: E402
from quetgames.players.prime_target_proof import best_rings  # noqa: E402
from quetgames.players.search import OutOfTime  # noqa: E402

SETTINGS = ((2, 4), (2, 6), (2, 8), (3, 6), (3, 8), (2, 10), (2, 12))  # (rings each, wedges)


def position(k: int, rays: int, left: int, seed: int) -> quetgames.State:
    """A random position of a two-seat game with `left` rings still to complete."""
    rng = random.Random(f"{k}|{rays}|{left}|{seed}")
    state = quetgames.new_game("prime-target", k=k, rays=rays)
    while state.opening or state.ring_total - len(state.rings) > left:  # type: ignore[attr-defined]
        state = state.play(rng.choice(state.legal_moves()) if state.opening else  # type: ignore[attr-defined]
                           "".join(rng.choice("+-") for _ in range(rays)))
    return state


def timed(call: object, cap: float) -> float | None:
    began = time.perf_counter()
    try:
        call()  # type: ignore[operator]
    except OutOfTime:
        return None
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=5)
    parser.add_argument("--cap", type=float, default=4.0)
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    for k, rays in SETTINGS:
        if args.only and f"{k}x{rays}" not in args.only.split(","):
            continue
        for left in range(1, 2 * k + 1):
            times = []
            for seed in range(args.samples):
                state = position(k, rays, left, seed)
                inner = state.rings[-1] if state.rings else state.centre  # type: ignore[attr-defined]
                times.append(timed(lambda: best_rings(inner, left, time.perf_counter() + args.cap), args.cap))
            done = [t for t in times if t is not None]
            print(json.dumps({"k": k, "rays": rays, "rings_left": left, "proved": f"{len(done)}/{len(times)}",
                              "median_s": round(statistics.median(done), 4) if done else None,
                              "slowest_s": round(max(done), 4) if done else None}), flush=True)
            if not done:
                break  # further from the end is slower still
    for empty in (4, 5, 6):
        times = []
        for seed in range(args.samples):
            rng = random.Random(f"centre|{empty}|{seed}")
            state = quetgames.new_game("prime-target")
            while state.rays - state.placed > empty:  # type: ignore[attr-defined]
                state = state.play(rng.choice(state.legal_moves()))
            times.append(timed(lambda: proved(state, time.perf_counter() + args.cap), args.cap))
        done = [t for t in times if t is not None]
        print(json.dumps({"centre_empty": empty, "proved": f"{len(done)}/{len(times)}",
                          "median_s": round(statistics.median(done), 4) if done else None,
                          "slowest_s": round(max(done), 4) if done else None}), flush=True)


if __name__ == "__main__":
    main()
