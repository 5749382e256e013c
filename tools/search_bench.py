"""The strong player's search speed: this working tree against a git commit,
on the same positions, in one run (issue 23, part 4).

    python tools/search_bench.py --against HEAD~1                  # speed, every game
    python tools/search_bench.py --against HEAD~1 --only 2 --rounds 5
    python tools/search_bench.py --against HEAD~1 --tournament 40  # strength: new strong vs old strong

The commit's `py/` is exported with `git archive` into a temporary
directory (nothing of the working tree or of git's worktree list changes).
Each side runs in its own fresh Python process with only its own `py/` on
the path, so the two packages never meet in one interpreter.

Speed: the positions are fixed (a few per game setting, reached by seeded
random and greedy moves, written as records by this tree and loaded by both
sides). In each round both sides time `computer_move(..., "strong",
iterations=N)` on every position, the order of the two sides alternating
from round to round so that a change of the machine's load falls on both.
Reported per game: iterations a second of each side (the best of the
rounds, after one warm-up round that is not counted: N × positions / seconds
of the process's own CPU time, which other work on a busy machine disturbs
far less than the wall clock does), the ratio new / old, and how many of the
positions got the same move from both (the same seeds and iterations: a
change that keeps the search's results keeps every move). The rounds after
the warm-up find the package's memos (its lru caches of rings, scores and
so on) full of these very positions; --cold empties them before each timing,
as a new game's first search finds them, which is what a player meets. Two-seat
Convoluted Coprimality's strong player is an alpha-beta capped at 50 nodes
an iteration that stops once a position is proved, so its "iterations a
second" is the iterations asked for over the time taken.

Strength (--tournament G): G games per game setting at N iterations a move,
the new strong player in seat g mod players and the old one in every other
seat; every move is asked of the side's own process. The new side's score (a
win 1, a shared win 1/k) with a Wilson 95% interval, against an even share
(1/players), and game by game, so that a run of the old commit against
itself (--new COMMIT) shows what "nothing changed" gives.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "py"))

import quetgames  # noqa: E402

sys.path.insert(0, str(ROOT / "tools"))
from analysis_benchmark import SETTINGS  # noqa: E402  (the same games and settings as the accuracy table)


# The side's process: reads one JSON request a line, answers one JSON line.
WORKER = r'''
import json, sys, time
sys.path.insert(0, sys.argv[1])
import quetgames
for line in sys.stdin:
    ask = json.loads(line)
    if ask["do"] == "time":
        states = [quetgames.load(r) for r in ask["records"]]
        if ask.get("cold"):  # every memo of the package emptied, as in a new game's first search
            for name, module in list(sys.modules.items()):
                if name.startswith("quetgames"):
                    for value in vars(module).values():
                        getattr(value, "cache_clear", lambda: None)()
        moves, began = [], time.process_time()
        for s in states:
            moves.append(quetgames.computer_move(s, s.to_move[0], "strong", seed=ask["seed"], iterations=ask["iterations"]))
        print(json.dumps({"seconds": time.process_time() - began, "moves": moves}), flush=True)
    else:
        s = quetgames.load(ask["record"])
        print(json.dumps({"move": quetgames.computer_move(s, ask["seat"], "strong", seed=ask["seed"],
                                                          iterations=ask["iterations"])}), flush=True)
'''


class Side:
    """One version of the package in its own process."""

    def __init__(self, name: str, py: Path, script: Path) -> None:
        self.name = name
        self.proc = subprocess.Popen([sys.executable, str(script), str(py)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)

    def ask(self, request: dict) -> dict:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"the {self.name} side's process stopped")
        return json.loads(line)

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def export(commit: str, into: Path) -> Path:
    """The commit's py/ written under `into`, by git archive."""
    data = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "py"], check=True,
                          capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into / "py"


def positions(game_id: str, options: dict, count: int) -> list[str]:
    """`count` positions of the setting with a choice to make, as records:
    game g plays 2 to 13 random and greedy moves from seed g, then greedy
    moves until the mover has two moves or more."""
    out: list[str] = []
    g = 0
    while len(out) < count and g < 20 * count:
        state = quetgames.new_game(game_id, **options)
        rng = random.Random(g)
        for k in range(rng.randrange(2, 14)):
            if state.is_over:
                break
            seat = state.to_move[0]
            level = "greedy" if k % 2 else "random"
            state = state.play(quetgames.computer_move(state, seat, level, seed=g + k), seat)
        while not state.is_over and len(state.legal_moves(state.to_move[0])) < 2:
            seat = state.to_move[0]
            state = state.play(quetgames.computer_move(state, seat, "greedy", seed=g), seat)
        if not state.is_over:
            out.append(state.record)
        g += 1
    return out


def wilson(score: float, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p, z = score / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def speed(new: Side, old: Side, rows: list, args: argparse.Namespace) -> None:
    for game_id, options in rows:
        records = positions(game_id, options, args.positions)
        request = {"do": "time", "records": records, "seed": 1, "iterations": args.iterations, "cold": args.cold}
        times: dict[str, list[float]] = {"new": [], "old": []}
        moves: dict[str, list[str]] = {}
        new.ask(request), old.ask(request)  # warm-up, not counted: imports, caches
        for r in range(args.rounds):
            for side in ((new, old) if r % 2 == 0 else (old, new)):
                answer = side.ask(request)
                times[side.name].append(answer["seconds"])
                moves[side.name] = answer["moves"]
        work = args.iterations * len(records)
        rate = {k: work / min(v) for k, v in times.items()}
        same = sum(a == b for a, b in zip(moves["new"], moves["old"]))
        print(f"{game_id} {options or 'defaults'}: {len(records)} positions, {args.iterations} iterations, "
              f"{args.rounds} rounds{' (cold memos)' if args.cold else ''}: old {rate['old']:.0f} it/s, new {rate['new']:.0f} it/s, "
              f"new/old {rate['new'] / rate['old']:.2f}; same move {same}/{len(records)}", flush=True)


def tournament(new: Side, old: Side, rows: list, args: argparse.Namespace) -> None:
    for game_id, options in rows:
        began = time.perf_counter()
        score = 0.0
        games = []  # the new side's result of each game
        players = quetgames.new_game(game_id, **options).players
        for g in range(args.tournament):
            extra = {"seed": g} if game_id == "nonconformity" else {}  # a new random start each game
            state = quetgames.new_game(game_id, **options, **extra)
            new_seat = g % players
            while not state.is_over:
                seat = state.to_move[0]
                side = new if seat == new_seat else old
                # (computer_move reduces the record to what the seat may know)
                move = side.ask({"do": "move", "record": state.record, "seat": seat, "seed": g,
                                 "iterations": args.iterations})["move"]
                state = state.play(move, seat)
            winners = state.winners
            games.append(1 / len(winners) if new_seat in winners else 0.0)
            score += games[-1]
        low, high = wilson(score, args.tournament)
        print(f"{game_id} {options or 'defaults'}: new strong in seat g mod {players} against old strong: "
              f"{score:g} of {args.tournament} ({100 * score / args.tournament:.1f}%, 95% CI {100 * low:.1f}% - "
              f"{100 * high:.1f}%; an even share is {100 / players:.1f}%); {time.perf_counter() - began:.0f} s; "
              f"game by game {''.join('1' if x == 1 else '0' if x == 0 else 's' for x in games)} (s: shared)",
              flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="HEAD", help="the git commit to compare with (default HEAD)")
    parser.add_argument("--new", default=None,
                        help="a git commit to take as the new side instead of the working tree (say, the old one "
                             "against itself: what the tournament gives when nothing changed)")
    parser.add_argument("--only", default=None, help="comma-separated row numbers of SETTINGS, from 0")
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cold", action="store_true",
                        help="empty the package's memos (lru caches) before each timing, as in a fresh game")
    parser.add_argument("--tournament", type=int, default=0, help="play this many games per setting instead")
    args = parser.parse_args()
    rows = [SETTINGS[int(i)] for i in args.only.split(",")] if args.only else SETTINGS
    for name in filter(None, (args.against, args.new)):
        found = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", f"{name}^{{commit}}"],
                               capture_output=True, text=True)
        if found.returncode != 0:
            raise SystemExit(f"search_bench: {name!r} is not a commit of this repository")
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", args.against], check=True,
                            capture_output=True, text=True).stdout.strip()
    print(f"{args.new or 'working tree'} against {commit}; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"{os.cpu_count()} cores", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "side.py"
        script.write_text(WORKER)
        new = Side("new", export(args.new, Path(tmp) / "new") if args.new else ROOT / "py", script)
        old = Side("old", export(args.against, Path(tmp) / "old"), script)
        try:
            (tournament if args.tournament else speed)(new, old, rows, args)
        finally:
            new.close()
            old.close()
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)


if __name__ == "__main__":
    main()
