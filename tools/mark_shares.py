"""What the analysis's marks say, over games of strong against random (issue 55).

For every game at its default settings, strong (in seat g mod players)
plays random, g = 0, 1, 2, ..., and the game is analysed at the page's
setting. Counted over the moves that had a choice:

- kept: moves the analysis proves keep their mover's result (exact, and
  the value after equals the value before); marked: those of them marked
  ? or ?? (a mistake or a blunder). Issue 55 asks for none.
- sure: moves marked ? or ?? at all (proved, or an estimate's loss at least
  three times its spread); uncertain: moves whose estimated loss would have
  been marked but is not sure (analysis.sure_grade).

    python tools/mark_shares.py [--games 100] [--jobs 2] [--only prime-target,...]

Prints one JSON line per game.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "py"))

import quetgames  # noqa: E402

MARKED = ("mistake", "blunder")


def one(task: tuple[str, int]) -> dict[str, int]:
    game_id, g = task
    state = quetgames.new_game(game_id)
    strong = g % state.players
    while not state.is_over:
        seat = state.to_move[0]
        level = "strong" if seat == strong else "random"
        state = state.play(quetgames.computer_move(state, seat, level, seed=g, iterations=300), seat)
    report = quetgames.analyse(state, seed=g)
    counts = dict.fromkeys(("moves", "exact", "kept", "kept_marked", "sure_marked", "uncertain"), 0)
    for m in report.moves:
        if m.forced:
            continue
        counts["moves"] += 1
        counts["exact"] += m.exact
        kept = m.exact and m.after >= m.before
        counts["kept"] += kept
        counts["kept_marked"] += kept and m.grade in MARKED
        counts["sure_marked"] += m.grade in MARKED
        counts["uncertain"] += m.grade == "uncertain"
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    games = [g for g in quetgames.GAMES if not args.only or g in args.only.split(",")]
    with ProcessPoolExecutor(args.jobs) as pool:
        for game_id in games:
            began = time.perf_counter()
            total: dict[str, int] = {}
            for counts in pool.map(one, [(game_id, g) for g in range(args.games)]):
                for key, value in counts.items():
                    total[key] = total.get(key, 0) + value
            moves = max(1, total["moves"])
            print(json.dumps({"game": game_id, "games": args.games, **total,
                              "kept_marked_share": round(total["kept_marked"] / max(1, total["kept"]), 4),
                              "uncertain_share": round(total["uncertain"] / moves, 4),
                              "sure_marked_share": round(total["sure_marked"] / moves, 4),
                              "seconds": round(time.perf_counter() - began)}), flush=True)


if __name__ == "__main__":
    main()
